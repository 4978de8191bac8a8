#!/usr/bin/env bash
# bench-lore.sh - lore-am against `b4 am` on the same public-inbox server.
#
# Generates a thread with gen-thread.sh (default: --preset large, 3303
# messages, 3.9 MB), serves it from a local public-inbox-httpd on
# 127.0.0.1 (tests/lib-pi.sh), and runs, side by side and in turns,
#   lore-am -C -q ID          (lore-am.midmask pointing at the server)
#   b4 -q am -C -o - ID       (b4.midmask pointing at the same server)
# both fetching t.mbox.gz over HTTP with their caches off. Reports the
# median wall time and peak RSS of each and their ratios, the time the
# server alone takes (curl downloading t.mbox.gz); for memory, also
# lore-am's fixed cost (an unknown id: libraries, TLS, two requests), its
# growth over that against the size of the thread, and lore-am -m on the
# same thread as a local file. Checks that `git am` of lore-am's output
# gives the latest revision's tree.
#
# Usage: bench/bench-lore.sh [--preset small|medium|large] [-n RUNS] [-k DIR]
#   -n RUNS   runs of each tool (default 5)
#   -k DIR    keep the work folder in DIR (must not exist); default: a
#             temporary folder removed at the end
#
# Needs: git, perl, curl, public-inbox, b4, GNU time (/usr/bin/time).
# Not part of `make check`. Talks to nothing but 127.0.0.1.
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-2}"
}
die() { echo "bench-lore.sh: $*" >&2; exit 2; }

preset=large runs=5 keep=
while [ $# -gt 0 ]; do
	case $1 in
	--preset) preset=${2:?}; shift 2 ;;
	--preset=*) preset=${1#--preset=}; shift ;;
	-n) runs=${2:?}; shift 2 ;;
	-k) keep=${2:?}; shift 2 ;;
	-h|--help) usage 0 ;;
	*) echo "bench-lore.sh: unknown argument '$1'" >&2; usage ;;
	esac
done
case $runs in ''|*[!0-9]*|0) die "-n needs a positive number" ;; esac

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
SRC_DIR=$(cd "$BENCH_DIR/.." && pwd)
LORE_AM=${LORE_AM:-$SRC_DIR/lore-am}
[ -x "$LORE_AM" ] || die "build lore-am first (make)"
command -v b4 >/dev/null || die "b4 not installed"
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) not installed"
. "$SRC_DIR/tests/lib-pi.sh"
pi_have_httpd || die "public-inbox-httpd not installed"

if [ -n "$keep" ]; then
	[ -e "$keep" ] && die "$keep exists"
	mkdir -p "$keep"
	W=$(cd "$keep" && pwd)
else
	W=$(mktemp -d "${TMPDIR:-/tmp}/bench-lore.XXXXXX")
fi
cleanup() {
	pi_stop
	[ -n "$keep" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- the thread
echo "generating the $preset thread..." >&2
id=$("$BENCH_DIR/gen-thread.sh" --preset "$preset" -k "$W/repo" -o "$W/thread.mbox")
mkdir "$W/split"
nmsg=$(git mailsplit --mboxrd -b --keep-cr -o"$W/split" "$W/thread.mbox")
latest=$(git -C "$W/repo" for-each-ref --format='%(refname:short)' 'refs/heads/v*' |
	sort -V | tail -1)

# One message through public-inbox-mda (creates and sets up the inbox the
# way the tests do), the rest through public-inbox's own importer in one
# process: -mda costs about 0.7 s a message here.
echo "importing $nmsg messages into public-inbox..." >&2
pi_init "$W/pi"
first=$(ls "$W/split" | head -1)
pi_add_inbox bench 2 "$W/split/$first" || die "pi_add_inbox failed"
rm "$W/split/$first"
_pi_env perl -e '
	use strict;
	use PublicInbox::Config;
	use PublicInbox::InboxWritable;
	use PublicInbox::Eml;
	use PublicInbox::MDA;
	my ($name, @files) = @ARGV;
	my $ibx = PublicInbox::Config->new->lookup_name($name) or
		die "no inbox $name\n";
	$ibx = PublicInbox::InboxWritable->new($ibx);
	my $im = $ibx->importer(0);
	for my $f (@files) {
		open(my $fh, "<:raw", $f) or die "$f: $!\n";
		my $s = do { local $/; <$fh> };
		my $eml = PublicInbox::Eml->new(\$s);
		PublicInbox::MDA->set_list_headers($eml, $ibx);
		$im->add($eml);
	}
	$im->done;
' bench "$W"/split/* || die "bulk import failed"
_pi_run public-inbox-index --no-fsync "$W/pi/inboxes/bench" ||
	die "public-inbox-index failed"
pi_start || die "public-inbox-httpd did not start"

# both tools see only this configuration
export HOME=$W/home XDG_CACHE_HOME=$W/cache GIT_CONFIG_NOSYSTEM=1
export GIT_CONFIG_GLOBAL=$HOME/.gitconfig
unset GIT_CONFIG_COUNT XDG_CONFIG_HOME
mkdir -p "$HOME"
git config --global user.name "Bench Maintainer"
git config --global user.email "bench@example.org"
git config --global lore-am.midmask "$PI_URL/bench/%s"
git config --global b4.midmask "$PI_URL/bench/%s"
git config --global b4.attestation-policy off

curl -q -s --noproxy '*' -o "$W/thread.gz" "$PI_URL/bench/$id/t.mbox.gz"
gz=$(wc -c <"$W/thread.gz")
raw=$(gzip -dc "$W/thread.gz" | wc -c)
served=$(gzip -dc "$W/thread.gz" | grep -c '^From mboxrd@z ')

# ---------------------------------------------------------------- the runs
# measure NAME CMD...: appends "seconds kilobytes" to $W/NAME.times;
# the command must succeed, unless NAME starts with "fail"
measure() {
	local name=$1 t0 t1
	shift
	t0=$EPOCHREALTIME
	/usr/bin/time -f %M -o "$W/$name.rss" "$@" \
		>"$W/$name.out" 2>"$W/$name.err" </dev/null ||
		case $name in
		fail*) ;;
		*) cat "$W/$name.err" >&2; die "$name failed" ;;
		esac
	t1=$EPOCHREALTIME
	echo "$(echo "$t1 - $t0" | bc -l) $(tail -1 "$W/$name.rss")" \
		>>"$W/$name.times"
}
median() { # median COLUMN FILE
	cut -d' ' -f"$1" "$2" | sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) print v[(NR + 1) / 2];
		      else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

cd "$W/repo"
echo "running each tool $runs times (plus one warm-up)..." >&2
measure warm-lore "$LORE_AM" -C -q "$id"
measure warm-b4 b4 -q am -C -o - "$id"
rm -f "$W"/*.times
for i in $(seq "$runs"); do
	measure lore "$LORE_AM" -C -q "$id"
	measure b4 b4 -q am -C -o - "$id"
	measure local "$LORE_AM" -q -m "$W/thread.mbox" "$id"
	measure fail-unknown "$LORE_AM" -C -q no-such-message@bench.invalid
	measure server curl -q -s --noproxy '*' -o /dev/null \
		"$PI_URL/bench/$id/t.mbox.gz"
done

git checkout -q -b bench-check base
git am -q "$W/lore.out" && git diff --quiet "$latest" ||
	die "git am of lore-am's output does not give $latest's tree"
git am --abort 2>/dev/null || true
lore_patches=$(grep -c '^From git@z ' "$W/lore.out" || true)
b4_patches=$(grep -c '^From ' "$W/b4.out" || true)

lt=$(median 1 "$W/lore.times")
bt=$(median 1 "$W/b4.times")
lm=$(median 2 "$W/lore.times")
bm=$(median 2 "$W/b4.times")
xt=$(median 1 "$W/local.times")
xm=$(median 2 "$W/local.times")
fm=$(median 2 "$W/fail-unknown.times")
st=$(median 1 "$W/server.times")

cat <<EOF
thread: $served messages served ($nmsg generated), $raw bytes inflated, $gz bytes gzipped
patches written: lore-am $lore_patches, b4 $b4_patches ($latest; git am of lore-am's output matches it)

| tool | wall time (median of $runs) | peak RSS (median) |
|---|---|---|
| lore-am -C | $(printf '%.3f s' "$lt") | $((lm / 1024)) MiB |
| b4 am -C | $(printf '%.3f s' "$bt") | $((bm / 1024)) MiB |
| ratio b4 / lore-am | $(printf '%.1fx' "$(echo "$bt / $lt" | bc -l)") | $(printf '%.1fx' "$(echo "$bm / $lm" | bc -l)") |

the server alone (curl downloading t.mbox.gz): $(printf '%.3f s' "$st")
lore-am -m on the same thread as a local file: $(printf '%.3f s' "$xt"), $((xm / 1024)) MiB peak RSS
lore-am fixed cost (unknown id: 404, then HEAD 404): $((fm / 1024)) MiB peak RSS
lore-am growth over it / inflated thread size: $(printf '%.2f' "$(echo "($lm - $fm) * 1024 / $raw" | bc -l)")
b4 peak RSS / inflated thread size: $(printf '%.2f' "$(echo "$bm * 1024 / $raw" | bc -l)")
EOF
