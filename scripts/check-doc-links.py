#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the relative links (and HTML src/href) of README.md, CONTRIBUTING.md and docs/**/*.md: each names a file
that exists and, for a #fragment into a Markdown file, one of its headings (GitHub's anchors).
usage: check-doc-links.py [ROOT]   (default: the repository); exit 1 naming each broken link."""
import re, os, sys, glob
root=sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
files=[os.path.join(root,f) for f in ['README.md','CONTRIBUTING.md']]+glob.glob(os.path.join(root,'docs/**/*.md'),recursive=True)
def anchors(path):
    out=set()
    for l in open(path, encoding='utf-8'):
        m=re.match(r'#+\s+(.*)',l)
        if m:
            a=m.group(1).strip().lower()
            a=re.sub(r'[^\w\- ]','',a).replace(' ','-')
            out.add(a)
    return out
bad=0
for f in files:
    text=open(f,encoding='utf-8').read()
    text=re.sub(r'```.*?```','',text,flags=re.S)
    for m in re.finditer(r'\]\(([^)\s]+)\)|(?:src|href)="([^"]+)"',text):
        t=m.group(1) or m.group(2)
        if re.match(r'[a-z]+:',t): continue
        path,_,anchor=t.partition('#')
        target=os.path.normpath(os.path.join(os.path.dirname(f),path)) if path else f
        if not os.path.exists(target):
            print(f'{os.path.relpath(f,root)}: broken link {t}'); bad+=1; continue
        if anchor and target.endswith('.md') and anchor not in anchors(target):
            print(f'{os.path.relpath(f,root)}: missing anchor {t}'); bad+=1
sys.exit(1 if bad else 0)
