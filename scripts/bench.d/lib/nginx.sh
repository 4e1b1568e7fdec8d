# nginx on 127.0.0.1 for the benchmark (source it after common.sh): a throwaway configuration under
# $BENCH_OUT/nginx, started by nginx_start and stopped when the mode exits, Ctrl-C included.
#
# After nginx_start ROOT:
#   NGINX_URL         http://127.0.0.1:PORT, serving ROOT; /small/ANYTHING serves ROOT/tiny.png, and
#                     /many/K/ANYTHING serves ROOT/small-set/K.png (corpus.py --small-set)
#   NGINX_ACCESS_LOG  one line per request: "URI STATUS BYTES" (unbuffered, so it can be counted
#                     as soon as a client is done)
#   NGINX_DAV_URL     http://127.0.0.1:PORT/dav: a WebDAV store (PUT, GET) under $BENCH_OUT/nginx/dav,
#                     for imgfetch's remote cache tier
#   NGINX_TLS_URL     https://127.0.0.1:PORT2, the same files over TLS with HTTP/2 (ALPN h2), with a
#                     certificate for 127.0.0.1 that the bench made and signed itself
#   BENCH_CACERT      that certificate: every tool is given it (--cacert, --ca-certificate)
#   /slow/PATH        ROOT/PATH sent at most 1 MB/s per connection (a request that takes a while)
#
# With NGINX_HOSTS=N set, the plain-http port also listens on 127.0.0.2 … 127.0.0.(N+1): N more
# hosts to a client (each address is a host of its own), for the per-host scenarios. The log
# line then ends with the Host header, the time the request ended (epoch seconds) and its length.

nginx_start() {
  local root="$1" prefix="$BENCH_OUT/nginx" port tls_port user_line=""
  mkdir -p "$prefix/tmp" "$prefix/dav"
  port="$(bench_free_port)"
  tls_port="$(bench_free_port)"
  while [ "$tls_port" = "$port" ]; do tls_port="$(bench_free_port)"; done
  BENCH_CACERT="$prefix/cert.pem"
  if [ ! -s "$BENCH_CACERT" ]; then
    # Self-signed, for the address the tools connect to; made once and reused.
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=127.0.0.1" \
      -addext "subjectAltName=IP:127.0.0.1" -keyout "$prefix/key.pem" -out "$BENCH_CACERT" 2>>"$BENCH_LOG"
  fi
  # Started as root, nginx would run its workers as nobody, who may not read the corpus.
  [ "$(id -u)" -ne 0 ] || user_line="user root;"
  NGINX_ACCESS_LOG="$prefix/access.log"
  : > "$NGINX_ACCESS_LOG"
  local extra_listens="" i
  for ((i = 2; i <= ${NGINX_HOSTS:-0} + 1; i++)); do extra_listens+="    listen 127.0.0.$i:$port;"$'\n'; done
  cat > "$prefix/nginx.conf" <<EOF
$user_line
daemon off;
worker_processes auto;
pid $prefix/nginx.pid;
error_log $prefix/error.log warn;
events { worker_connections 4096; }
http {
  log_format uri '\$request_uri \$status \$body_bytes_sent \$host \$msec \$request_time';
  access_log $NGINX_ACCESS_LOG uri;
  types { image/jpeg jpg; image/png png; image/webp webp; image/gif gif; }
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 1000000;
  client_body_temp_path $prefix/tmp/body;
  proxy_temp_path $prefix/tmp/proxy;
  fastcgi_temp_path $prefix/tmp/fastcgi;
  uwsgi_temp_path $prefix/tmp/uwsgi;
  scgi_temp_path $prefix/tmp/scgi;
  server {
    listen 127.0.0.1:$port;
$extra_listens    listen 127.0.0.1:$tls_port ssl http2;
    ssl_certificate $BENCH_CACERT;
    ssl_certificate_key $prefix/key.pem;
    ssl_session_cache shared:SSL:1m;
    root $root;
    location /small/ { rewrite ^ /tiny.png break; }
    location /slow/ { alias $root/; limit_rate 1m; }
    location /many/ { rewrite "^/many/([0-9]+)/" /small-set/\$1.png break; }
    location /dav/ {
      alias $prefix/dav/;
      dav_methods PUT DELETE;
      create_full_put_path on;
      client_max_body_size 0;
    }
  }
}
EOF
  nginx -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" &
  NGINX_PID=$!
  bench_on_exit nginx_stop
  NGINX_URL="http://127.0.0.1:$port"
  NGINX_DAV_URL="$NGINX_URL/dav"
  NGINX_TLS_URL="https://127.0.0.1:$tls_port"
  local i
  for ((i = 0; i < 200; i++)); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "$NGINX_URL/")" != 000 ]; then
      log "nginx serving $root at $NGINX_URL"
      return 0
    fi
    kill -0 "$NGINX_PID" 2>/dev/null || break
    sleep 0.05
  done
  log "nginx did not start (see $prefix/error.log)"
  return 1
}

nginx_stop() {
  [ -n "${NGINX_PID:-}" ] || return 0
  kill -TERM "$NGINX_PID" 2>/dev/null || true
  wait "$NGINX_PID" 2>/dev/null || true
  NGINX_PID=""
}

# Bytes in the access log now; pass it to nginx_requests_since to see only later requests.
nginx_log_mark() { stat -c %s "$NGINX_ACCESS_LOG"; }

# The request URIs logged after MARK, one a line.
nginx_requests_since() { tail -c +"$(($1 + 1))" "$NGINX_ACCESS_LOG" | awk '{ print $1 }'; }
