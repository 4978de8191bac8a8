#!/bin/bash
# Hostile servers: every byte an archive sends may be hostile. Redirects to
# other schemes are refused (file:// and redirect loops: t3010), a server
# that dribbles just enough never to stall meets a deadline, a gzip bomb of
# one endless message is stopped at the per-message limit under an address
# space cap whatever lore-am.max-size says, and a server that answers with
# another thread is noticed: not used, not cached, the mirror asked. Each
# failure is one line with its exit status and nothing on stdout. (HTTPS
# certificate checks and the stall timeout are in t3010.)
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"

command -v gzip >/dev/null || skip_all "gzip not installed"
plan 19

gz_thread || exit 1
# the same thread under other Message-IDs
sed 's/PATCH@example\.org/OTHER@example.org/g' "$TRASH/thread.mbox" |
	gzip -c >"$TRASH/other.gz"
tiny_start GOOD serve "$TRASH/thread.gz" application/gzip || exit 1
lore good -C -L "http://127.0.0.1:$GOOD/list" "$COVER"
is "$(cat "$TRASH/good.rc")" 0 "the right thread from a sound server"
rm -rf "$XDG_CACHE_HOME"

# -- redirects to other schemes --------------------------------------------
for scheme in ftp gopher dict scp; do
	tiny_start R redirect "$scheme://127.0.0.1:$GOOD/list/x" || exit 1
	lore "r$scheme" -C -L "http://127.0.0.1:$R/list" "$COVER"
	fails "r$scheme" 75 "cannot fetch .*: .*[Pp]rotocol" \
		"a redirect to $scheme:// is refused: exit 75"
done
tiny_start RESC redirect $'ftp://\x1b]0;owned\x07\x1b[2J/x' || exit 1
lore resc -C -L "http://127.0.0.1:$RESC/list" "$COVER"
! grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$TRASH/resc.err" &&
	[ "$(cat "$TRASH/resc.rc")" = 75 ]
ok $? "a Location full of escapes: refused, the error line clean"

# -- slow-loris ---------------------------------------------------------------
# five bytes a second: never a stall (less than one byte a second), never
# done; a guard of 60 s keeps a regression from hanging the suite
tiny_start DRIP drip "$TRASH/thread.gz" application/gzip 0.2 || exit 1
git config --global lore-am.stall-timeout 1
git config --global lore-am.timeout 2
timeout 60 "$LORE_AM" -C -L "http://127.0.0.1:$DRIP/list" "$COVER" \
	</dev/null >"$TRASH/drip.out" 2>"$TRASH/drip.err"
echo $? >"$TRASH/drip.rc"
fails drip 75 "cannot fetch .*: not done after 2 s \(the server is too slow; see lore-am.timeout\)" \
	"a slow-loris server: exit 75 at lore-am.timeout"
git config --global lore-am.timeout 0
P1=${COVER/.0.v1-/.1.v1-}
"$SRC_DIR/tests/mbox-edit" "$TRASH/thread.mbox" "$P1" 'print STDOUT $_' |
	gzip -9 >"$TRASH/one.gz"
tiny_start DRIP2 drip "$TRASH/one.gz" application/gzip 0.002 || exit 1
lore drip2 -C --allow-incomplete -L "http://127.0.0.1:$DRIP2/list" "$P1"
is "$(cat "$TRASH/drip2.rc")" 0 "lore-am.timeout=0: a slow but finite answer arrives"
grep -q "^Subject: \[PATCH 1/5\]" "$TRASH/drip2.out"
ok $? "whole"
git config --global --unset lore-am.timeout
git config --global --unset lore-am.stall-timeout
git config --global lore-am.timeout soon
lore badtimeout -C -L "http://127.0.0.1:$GOOD/list" "$COVER"
fails badtimeout 2 "git config lore-am.timeout" "lore-am.timeout=soon: refused, exit 2"
git config --global --unset lore-am.timeout

# -- decompression bombs --------------------------------------------------------
# 300 MB of zeros in 300 KB: one endless "message", under the default
# lore-am.max-size (512 MiB); memory is capped well below what it inflates to
head -c 300000000 /dev/zero | gzip -1 >"$TRASH/bomb.gz"
tiny_start BOMB serve "$TRASH/bomb.gz" application/gzip || exit 1
(limit_vm 450000; lore bomb -L "http://127.0.0.1:$BOMB/list" "$COVER")
fails bomb 2 "cannot fetch .*: a message of the thread inflates to more than 64 MiB" \
	"a gzip bomb: stopped at the 64 MiB message limit, under a 450 MB cap"
check "and not cached" no_cache_entry
{ printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\nMessage-ID: <b@x>\n\n'
  yes 'no From_ line here, ever' | head -c 100000000; } | gzip -1 >"$TRASH/lines.gz"
tiny_start LINES serve "$TRASH/lines.gz" application/gzip || exit 1
(limit_vm 450000; lore lines -L "http://127.0.0.1:$LINES/list" "$COVER")
fails lines 2 "cannot fetch .*: a message of the thread inflates to more than 64 MiB" \
	"100 MB of text lines without a message boundary: the same"
rm -f "$TRASH/bomb.gz" "$TRASH/lines.gz"

# -- the wrong thread ----------------------------------------------------------------
tiny_start WRONG serve "$TRASH/other.gz" application/gzip || exit 1
WRONG_LOG=$TRASH/tiny$TINY_N.log
lore wrong -L "http://127.0.0.1:$WRONG/list" "$COVER"
fails wrong 75 "cannot fetch http://127.0.0.1:$WRONG/list/.*: the server sent a thread of [0-9]+ message\(s\) without <$COVER>" \
	"a server answering with another thread: noticed, exit 75"
check "and its answer is not cached" no_cache_entry
lore wrongfb -L "http://127.0.0.1:$WRONG/list" \
	--fallback "http://127.0.0.1:$GOOD/list" "$COVER"
is "$(cat "$TRASH/wrongfb.rc")" 0 "with a mirror: the mirror's thread is used"
same_file "$TRASH/wrongfb.out" "$TRASH/good.out" "the right series"
check "the warning names the wrong thread and the mirror" \
	grep -q "warning: cannot fetch .*without <$COVER>.*; trying http://127.0.0.1:$GOOD/list/" \
	"$TRASH/wrongfb.err"

# a wrong thread planted in the cache is dropped and fetched again
f=$(find "$XDG_CACHE_HOME" -type f | head -1)
cp "$TRASH/other.gz" "$f"
lore cached -L "http://127.0.0.1:$GOOD/list" "$COVER"
same_file "$TRASH/cached.out" "$TRASH/good.out" \
	"a cache entry of another thread is not believed: fetched again"
done_testing
