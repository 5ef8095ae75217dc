#!/usr/bin/env bash
# Rebuilds Tests/ReaderCorpus from the Debian packages that ship its pages (see Tests/ReaderCorpus/README.md for
# each page's source and licence). Pages are copied as the packages ship them; the ones marked "re-encoded" are the
# same page converted with iconv into the legacy encoding its language used on the web (with its <meta charset>
# changed to match), because no openly licensed page in that encoding is packaged.
# Needs: apt-get install debian-history debian-reference-es debian-reference-zh-cn debian-reference-zh-tw w3m
#        libxslt1-dev libsecret-1-dev
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$ROOT/Tests/ReaderCorpus/pages"
mkdir -p "$OUT"
HIST=/usr/share/doc/debian-history/docs
REF=/usr/share/debian-reference

copy() { cp "$1" "$OUT/$2"; }
# re-encode SOURCE NAME ICONV-NAME META-LABEL
reencode() {
    sed -E "s/charset=(\"?)[Uu][Tt][Ff]-8/charset=\1$4/" "$1" | iconv -c -f UTF-8 -t "$3" >"$OUT/$2"
}

copy "$HIST/detailed.es.html" es-debian-history-detailed.html
copy "$REF/ch08.es.html" es-debian-reference-ch08.html
copy /usr/share/doc/w3m/FAQ.html en-w3m-faq.html
copy /usr/share/doc/libxslt1-dev/html/tutorial2/libxslt_pipes.html en-libxslt-pipes.html
copy /usr/share/doc/libsecret-1/class.Item.html en-libsecret-item.html
reencode "$HIST/detailed.ja.html" ja-debian-history-detailed.html CP932 Shift_JIS
reencode /usr/share/doc/w3m/ja/MANUAL.html ja-w3m-manual.html EUC-JP EUC-JP
reencode "$HIST/detailed.ko.html" ko-debian-history-detailed.html CP949 EUC-KR
reencode "$REF/ch08.zh-cn.html" zh-cn-debian-reference-ch08.html GBK GB2312
reencode "$REF/ch08.zh-tw.html" zh-tw-debian-reference-ch08.html BIG5-HKSCS Big5
reencode "$HIST/detailed.ru.html" ru-debian-history-detailed.html CP1251 windows-1251
reencode "$HIST/detailed.de.html" de-debian-history-detailed.html ISO-8859-1 ISO-8859-1
# The issue's migrated site: UTF-8 bytes under a <meta> that still says gb2312.
sed -E 's/charset=("?)[Uu][Tt][Ff]-8/charset=\1gb2312/' "$HIST/releases.es.html" >"$OUT/es-wrong-meta-gb2312.html"
