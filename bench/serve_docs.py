#!/usr/bin/env python3
"""Serve a directory over loopback for bench/extract.sh's wget crawl.

Like `python3 -m http.server`, but speaks HTTP/1.1 and, so that the WARC
wget writes holds the body encodings real crawls hold, sends every page in
one of three ways chosen by a hash of its path (deterministic): with a
Content-Length, with Transfer-Encoding: chunked, or gzip-compressed with
Content-Encoding: gzip.

    serve_docs.py ROOT PORT
"""
import gzip
import http.server
import os
import sys
import zlib


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        rel = self.path.split("?", 1)[0].lstrip("/")
        path = os.path.realpath(os.path.join(self.root, rel))
        if not path.startswith(self.root) or not os.path.isfile(path):
            self.send_error(404)
            return
        with open(path, "rb") as f:
            body = f.read()
        how = zlib.crc32(rel.encode()) % 3
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        if how == 2:
            body = gzip.compress(body, compresslevel=6, mtime=0)
            self.send_header("Content-Encoding", "gzip")
        if how == 1:
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(0, len(body), 8192):
                part = body[i:i + 8192]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)


def main():
    Handler.root = os.path.realpath(sys.argv[1])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Handler)
    server.serve_forever()


if __name__ == "__main__":
    main()
