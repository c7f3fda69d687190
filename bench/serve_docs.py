#!/usr/bin/env python3
"""Serve documentation over loopback for the benches' wget crawls.

Like `python3 -m http.server`, but speaks HTTP/1.1 and, so that the WARC
wget writes holds the body encodings real crawls hold, sends every page in
one of three ways chosen by a hash of its path (deterministic): with a
Content-Length, with Transfer-Encoding: chunked, or gzip-compressed with
Content-Encoding: gzip.

    serve_docs.py ROOT PORT             one site: ROOT at http://127.0.0.1:PORT/
    serve_docs.py --sites FILE PORT     many sites, one per host (below)
    serve_docs.py --sites FILE --list   the URL of every page of FILE's sites

With --sites, FILE (bench/realcrawl_sites.txt) names a host and a root
per line (host, split, package, root); the server is then also an HTTP
proxy for wget (`-e http_proxy=127.0.0.1:PORT`), so that each site's pages
carry their own host name in the WARC, as a crawl of many sites does,
though no name resolves: the request line or the Host header says which
site.  Symbolic links under a root are followed.
"""
import gzip
import http.server
import os
import posixpath
import sys
import urllib.parse
import zlib


def read_sites(path):
    """[(host, split, package, root)] of a sites file, in its order."""
    sites = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split("#", 1)[0].split()
            if fields:
                host, split, package, root = fields
                sites.append((host, split, package, root))
    return sites


def site_pages(root):
    """The pages under root, as sorted relative paths."""
    pages = []
    for top, dirs, files in os.walk(root, followlinks=True):
        for name in files:
            path = os.path.join(top, name)
            if name.endswith((".html", ".htm")) and os.path.isfile(path):
                pages.append(os.path.relpath(path, root))
    return sorted(pages)


def page_url(host, rel):
    return "http://%s/%s" % (host, urllib.parse.quote(rel))


def url_file(roots, url):
    """The file a URL names under its host's root, or None."""
    parts = urllib.parse.urlsplit(url)
    root = roots.get(parts.hostname or "")
    rel = posixpath.normpath(urllib.parse.unquote(parts.path).lstrip("/"))
    if root is None or rel.startswith("..") or rel.startswith("/"):
        return None
    return os.path.join(root, rel)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # headers and body are two writes: Nagle's wait on the second, against
    # the client's delayed ACK, would hold every response ~40 ms
    disable_nagle_algorithm = True
    root = "."
    roots = None

    def log_message(self, fmt, *args):
        pass

    def local_file(self):
        if self.roots is None:
            rel = self.path.split("?", 1)[0].lstrip("/")
            path = os.path.realpath(os.path.join(self.root, rel))
            return (path if path.startswith(self.root) else None), rel
        url = self.path
        if not url.startswith("http://"):
            url = "http://%s%s" % (self.headers.get("Host", ""), url)
        url = url.split("?", 1)[0]
        return url_file(self.roots, url), url

    def do_GET(self):
        path, rel = self.local_file()
        if path is None or not os.path.isfile(path):
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
    if sys.argv[1] == "--sites":
        sites = read_sites(sys.argv[2])
        if sys.argv[3] == "--list":
            for host, _, _, root in sites:
                for rel in site_pages(root):
                    print(page_url(host, rel))
            return
        Handler.roots = {host: root for host, _, _, root in sites}
        port = sys.argv[3]
    else:
        Handler.root = os.path.realpath(sys.argv[1])
        port = sys.argv[2]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(port)), Handler)
    server.serve_forever()


if __name__ == "__main__":
    main()
