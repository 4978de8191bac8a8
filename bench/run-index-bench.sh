#!/usr/bin/env bash
# run-index-bench.sh - the cost of `lore-am -m FOLDER` with the index, on a
# large generated maildir holding one patch thread, against the same run on
# a maildir holding only the thread (and against --no-index).
#
# Usage:
#   run-index-bench.sh [-n MESSAGES] [-r RUNS] [-P MAILS] [-N] [-w DIR] [-L LORE_AM]
#
#   -n MESSAGES  list mails in the big maildir (default 100000)
#   -r RUNS      runs per warm measure (median; default 9)
#   -P MAILS     mails piped through --passthrough per folder (default 100)
#   -N           skip `notmuch new` on the big maildir (given for scale)
#   -w DIR       keep the folders and raw figures in DIR
#   -L LORE_AM   the binary to time (default: ./lore-am of this tree)
#
# The big maildir: MESSAGES small (about 1 KB) list mails in random threads,
# written by one Perl process, plus the patch thread bench/gen-thread.sh
# makes with real git format-patch (5 patches, 20 replies), all in cur/.
# Wall time and peak RSS from wait4(2) (bench/rusage.c). Prints a Markdown
# report on stdout; progress on stderr. Needs git, perl, cc; notmuch for
# the scale figure.
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-2}"
}
die() { echo "run-index-bench.sh: $*" >&2; exit 2; }
say() { echo "run-index-bench.sh: $*" >&2; }

here=$(cd "$(dirname "$0")" && pwd)
n=100000 runs=9 ptmails=100 nm=1 work='' lore=$here/../lore-am
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=${2:?}; shift 2 ;;
	-r) runs=${2:?}; shift 2 ;;
	-P) ptmails=${2:?}; shift 2 ;;
	-N) nm=0; shift ;;
	-w) work=${2:?}; shift 2 ;;
	-L) lore=${2:?}; shift 2 ;;
	-h|--help) usage 0 ;;
	*) echo "run-index-bench.sh: unknown argument '$1'" >&2; usage ;;
	esac
done
for v in "$n" "$runs" "$ptmails"; do
	case $v in ''|*[!0-9]*) die "-n, -r and -P take numbers" ;; esac
done
for p in git perl cc; do command -v "$p" >/dev/null || die "$p not found"; done
command -v notmuch >/dev/null || nm=0
[ -x "$lore" ] || die "$lore not found (run make first)"
lore=$(cd "$(dirname "$lore")" && pwd)/$(basename "$lore")
if [ -n "$work" ]; then
	mkdir -p "$work" && work=$(cd "$work" && pwd)
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/lore-am-index-bench.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi
export XDG_CACHE_HOME=$work/cache GIT_CONFIG_NOSYSTEM=1
export GIT_CONFIG_GLOBAL=$work/gitconfig
: >"$GIT_CONFIG_GLOBAL"
cc -O2 -o "$work/rusage" "$here/rusage.c" || die "cannot build bench/rusage.c"

big=$work/big only=$work/only
rm -rf "$big" "$only" "$work/in" "$work/cache"
mkdir -p "$big"/{cur,new,tmp} "$only"/{cur,new,tmp} "$work/in"

say "the patch thread (gen-thread.sh --preset small)"
id=$("$here/gen-thread.sh" --preset small -s 7 -o "$work/thread.mbox")
git mailsplit -o"$work/split" "$work/thread.mbox" >/dev/null 2>&1 ||
	{ mkdir -p "$work/split"; git mailsplit -o"$work/split" "$work/thread.mbox" >/dev/null; }
tn=0
for f in "$work"/split/*; do
	tn=$((tn + 1))
	sed '1{/^From /d;}' "$f" >"$only/cur/thread$tn.bench:2,S"
	cp "$only/cur/thread$tn.bench:2,S" "$big/cur/"
done

say "$n list mails (Perl)"
t0=$(date +%s.%N)
# gen N DIR PREFIX: N mails of about 1 KB, threads of random shape
gen() {
	perl -e '
		my ($n, $dir, $pfx, $seed) = @ARGV;
		srand($seed);
		my @w = qw(the of driver memory lock patch kernel fix page
			   cache device queue reset buffer error path value);
		my (@ids, @refs);
		for my $i (1 .. $n) {
			my $id = "$pfx$i\@list.example.org";
			my ($irt, $refs) = ("", "");
			if (@ids && rand() < 0.7) {
				my $p = int(rand(@ids < 2000 ? @ids : 2000));
				$p = @ids - 1 - $p;
				$irt = "<$ids[$p]>";
				my @r = (split(/ /, $refs[$p]), $irt);
				@r = @r[-5 .. -1] if @r > 5;
				$refs = join(" ", @r);
			}
			push @ids, $id;
			push @refs, $refs;
			my $s = int(rand(1000));
			my $body = "";
			$body .= join(" ", map { $w[rand @w] } 1 .. 12) . "\n"
				while length($body) < 700;
			my $t = 1704067200 + $i * 30;
			my @tm = gmtime($t);
			my $date = sprintf("%s, %d %s %d %02d:%02d:%02d +0000",
				(qw(Sun Mon Tue Wed Thu Fri Sat))[$tm[6]], $tm[3],
				(qw(Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec))[$tm[4]],
				$tm[5] + 1900, $tm[2], $tm[1], $tm[0]);
			open my $f, ">", "$dir/$pfx$i.bench:2,S" or die "$dir: $!";
			print $f "From: Sender $s <s$s\@example.org>\n",
				"To: list\@list.example.org\n",
				"Subject: ", ($irt ? "Re: " : ""), "topic ", $i % 997, "\n",
				"Date: $date\n", "Message-ID: <$id>\n",
				($irt ? "In-Reply-To: $irt\nReferences: $refs\n" : ""),
				"\n", $body;
			close $f;
		}' "$1" "$2" "$3" "$4"
}
gen "$n" "$big/cur" m 1
t1=$(date +%s.%N)
gen_s=$(echo "$t1 - $t0" | bc)
say "written in $gen_s s"

# incoming mail for the --passthrough loop and the deliveries: list mail
# and replies to patch 1 of the thread with a new reviewer's trailer
gen "$ptmails" "$work/in" in 2
p1=$(sed -n 's/^Message-I[dD]: *<\(.*\)>.*/\1/p' "$only/cur/thread2.bench:2,S" | head -1)
p1subj=$(sed -n 's/^Subject: //p' "$only/cur/thread2.bench:2,S" | head -1)
mkreply() { # mkreply N FILE
	printf 'From: New Reviewer %s <new%s@example.org>\nTo: list@list.example.org\nSubject: Re: %s\nDate: Mon, 1 Jul 2024 10:00:%02d +0000\nMessage-ID: <newrev%s@example.org>\nIn-Reply-To: <%s>\nReferences: <%s> <%s>\n\nLooks good.\n\nReviewed-by: New Reviewer %s <new%s@example.org>\n' \
		"$1" "$1" "$p1subj" $(($1 % 60)) "$1" "$p1" "$id" "$p1" "$1" "$1" >"$2"
}

# cpu_of FILE: the median user+system CPU of rusage lines, in ms
cpu_of() {
	awk '{ print $2 + $3 }' "$1" | sort -n |
		awk '{ t[NR] = $1 } END { printf "%.1f", t[int((NR + 1) / 2)] * 1000 }'
}
# measure LABEL RUNS ARGS...: lore-am ARGS RUNS times; sets med_ms,
# cpu_ms, rss_kb
measure() {
	_l=$1 _r=$2; shift 2
	"$work/rusage" "$_r" /dev/null "$lore" "$@" >"$work/$_l.time" ||
		die "lore-am $* failed"
	med_ms=$(sort -n "$work/$_l.time" | awk '{ t[NR] = $1 } END { printf "%.1f", t[int((NR + 1) / 2)] * 1000 }')
	cpu_ms=$(cpu_of "$work/$_l.time")
	rss_kb=$(sort -n -k4 "$work/$_l.time" | tail -1 | awk '{ print $4 }')
}
ratio() { echo "scale=2; $1 / $2" | bc; }

say "thread-only folder (its index built first)"
"$lore" -q -m "$only" "$id" >/dev/null
measure only "$runs" -q -m "$only" "$id"
only_ms=$med_ms only_rss=$rss_kb only_cpu=$cpu_ms

say "plain scan of the big folder (--no-index), 3 runs"
measure plain 3 -q --no-index -m "$big" "$id"
plain_ms=$med_ms plain_rss=$rss_kb plain_cpu=$cpu_ms

say "first run on the big folder: building the index, 3 runs"
firsts=""
for i in 1 2 3; do
	rm -rf "$XDG_CACHE_HOME/lore-am/index"
	measure first$i 1 -q -m "$big" "$id"
	firsts="$firsts $med_ms"
	fcpus="${fcpus:-} $cpu_ms"
	first_rss=$rss_kb
done
first_ms=$(printf '%s\n' $firsts | sort -n | sed -n 2p)
first_cpu=$(printf '%s\n' $fcpus | sort -n | sed -n 2p)
idx_kb=$(du -sk "$XDG_CACHE_HOME/lore-am/index" | cut -f1)

say "warm runs on the big folder"
sleep 0.2 # past the mtime granularity guard: the listing is trusted
"$lore" -q -m "$big" "$id" >/dev/null
measure warm "$runs" -q -m "$big" "$id"
warm_ms=$med_ms warm_rss=$rss_kb warm_cpu=$cpu_ms

say "one new mail in new/, then the run ($runs times)"
: >"$work/new.times"
used=0
for i in $(seq 1 "$runs"); do
	mkreply "$i" "$big/tmp/new$i"
	mv "$big/tmp/new$i" "$big/new/new$i.bench"
	"$work/rusage" 1 /dev/null "$lore" -q -m "$big" "$id" >>"$work/new.times"
	"$lore" -q -m "$big" "$id" 2>/dev/null |
		grep -q "Reviewed-by: New Reviewer $i <new$i@example.org>" &&
		used=$((used + 1))
done
new_ms=$(sort -n "$work/new.times" | awk '{ t[NR] = $1 } END { printf "%.1f", t[int((NR + 1) / 2)] * 1000 }')
new_cpu=$(cpu_of "$work/new.times")

# --passthrough as the procmail recipe runs it: each mail piped through,
# then delivered into the folder (new/)
passloop() { # passloop FOLDER: ms per mail
	_s=$(date +%s%N)
	for f in "$work"/in/*; do
		"$lore" --passthrough -o "$work/pt-out" -m "$1" <"$f" >"$1/tmp/x" 2>/dev/null
		mv "$1/tmp/x" "$1/new/pt.$(basename "$f" | tr ':,' '__')"
	done
	_e=$(date +%s%N)
	echo "scale=2; ($_e - $_s) / 1000000 / $ptmails" | bc
}
say "--passthrough, $ptmails mails each"
pt_only=$(passloop "$only")
pt_big=$(passloop "$big")

nm_s="not run"
if [ "$nm" = 1 ]; then
	say "notmuch new on the big folder (for scale)"
	cat >"$work/nmconfig" <<NM
[database]
path=$work/nmdb
mail_root=$big
[new]
tags=
NM
	mkdir -p "$work/nmdb"
	t0=$(date +%s.%N)
	NOTMUCH_CONFIG=$work/nmconfig notmuch new --quiet >/dev/null 2>&1 || true
	t1=$(date +%s.%N)
	nm_s=$(echo "scale=1; ($t1 - $t0) / 1" | bc)" s"
fi

verdict() { # verdict VALUE LIMIT
	if [ "$(echo "$1 <= $2" | bc)" = 1 ]; then echo met; else echo "**missed**"; fi
}
wr=$(ratio "$warm_ms" "$only_ms") wm=$(ratio "$warm_rss" "$only_rss")
nr=$(ratio "$new_ms" "$only_ms") fr=$(ratio "$first_ms" "$plain_ms")
wc=$(ratio "$warm_cpu" "$only_cpu") nc=$(ratio "$new_cpu" "$only_cpu")
fc=$(ratio "$first_cpu" "$plain_cpu")
cat <<REPORT
### $n list mails + a $tn-message patch thread ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))

Command: \`bench/run-index-bench.sh -n $n -r $runs -P $ptmails\`; lore-am $("$lore" --version | cut -d' ' -f2).
Median wall time and user+system CPU of $runs runs (first run: of 3), peak RSS (wait4).
Folder written in $(printf %.1f "$gen_s") s; index file $((idx_kb / 1024)) MB.

| run | wall | CPU | peak RSS | ratio (wall; CPU) | target |
|---|---|---|---|---|---|
| \`-m THREAD-ONLY ID\` (indexed, warm) | $only_ms ms | $only_cpu ms | $((only_rss / 1024)) MB | 1x | |
| \`-m BIG ID\`, warm | $warm_ms ms | $warm_cpu ms | $((warm_rss / 1024)) MB | ${wr}x; ${wc}x; RSS ${wm}x | time <= 3x: $(verdict "$wr" 3); RSS <= 2x: $(verdict "$wm" 2) |
| one new mail in new/, then \`-m BIG ID\` | $new_ms ms | $new_cpu ms | | ${nr}x; ${nc}x | <= 3x: $(verdict "$nr" 3); the new mail used in $used of $runs runs |
| \`--no-index -m BIG ID\` (the plain scan) | $plain_ms ms | $plain_cpu ms | $((plain_rss / 1024)) MB | | |
| first run (builds the index) | $first_ms ms | $first_cpu ms | $((first_rss / 1024)) MB | ${fr}x; ${fc}x the plain scan | <= 1.5x: $(verdict "$fr" 1.5) |
| \`notmuch new\` on BIG, for scale | $nm_s | | | | |
| \`--passthrough -m THREAD-ONLY\`, per mail | $pt_only ms | | | | |
| \`--passthrough -m BIG\`, per mail | $pt_big ms | | | | |
REPORT
