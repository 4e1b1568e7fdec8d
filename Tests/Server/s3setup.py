#!/usr/bin/env python3
"""Prepares a moto S3 server for a test: creates the bucket and, with --iam, an IAM user
allowed everything, printing its access key id and secret on one line.

Usage: s3setup.py ENDPOINT BUCKET [--iam]
Run it while the server still takes unauthenticated calls (INITIAL_NO_AUTH_ACTION_COUNT)."""
import json
import sys

import boto3


def main(argv):
    endpoint, bucket = argv[1], argv[2]
    session = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="setup", aws_secret_access_key="setup")
    boto3.client("s3", **session).create_bucket(Bucket=bucket)
    if "--iam" in argv:
        iam = boto3.client("iam", **session)
        iam.create_user(UserName="worker")
        policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}
        iam.put_user_policy(UserName="worker", PolicyName="everything", PolicyDocument=json.dumps(policy))
        key = iam.create_access_key(UserName="worker")["AccessKey"]
        print(key["AccessKeyId"], key["SecretAccessKey"])
    else:
        print("anykey anysecret")


if __name__ == "__main__":
    main(sys.argv)
