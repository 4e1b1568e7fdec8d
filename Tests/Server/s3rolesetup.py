#!/usr/bin/env python3
"""Adds to a moto server prepared by s3setup.py --iam an IAM role allowed everything, for the
web identity tests (STS AssumeRoleWithWebIdentity), and prints its ARN. Two calls: run it while
the server still takes unauthenticated calls (INITIAL_NO_AUTH_ACTION_COUNT).

Usage: s3rolesetup.py ENDPOINT ROLE_NAME"""
import json
import sys

import boto3


def main(argv):
    endpoint, name = argv[1], argv[2]
    session = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="setup", aws_secret_access_key="setup")
    iam = boto3.client("iam", **session)
    trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Federated": "ci.example"},
                                                     "Action": "sts:AssumeRoleWithWebIdentity"}]}
    role = iam.create_role(RoleName=name, AssumeRolePolicyDocument=json.dumps(trust))["Role"]
    policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}
    iam.put_role_policy(RoleName=name, PolicyName="everything", PolicyDocument=json.dumps(policy))
    print(role["Arn"])


if __name__ == "__main__":
    main(sys.argv)
