# lib-attest.sh - what attest-bench.sh (DKIM) and patatt-bench.sh share,
# sourced by both.

# attest_start NAME "TOOLS" ARGS...: the options both take (-r RUNS,
# -w WORKDIR) into $runs and $work, die and say prefixed with NAME, the
# TOOLS checked, $lore (this tree's build), $work made (removed at exit
# unless -w named it, $keep), and a HOME of its own there with the git
# identity and both tools' staleness check off: the generated mails are
# dated 2024 and signed today, so both would call every signature stale.
attest_start() {
	local p o OPTIND=1

	_name=$1 tools=$2
	shift 2
	lore=$here/../lore-am runs=5 work=
	while getopts r:w: o; do
		case $o in
		r) runs=$OPTARG ;;
		w) work=$OPTARG ;;
		*) exit 2 ;;
		esac
	done
	for p in $tools; do
		command -v "$p" >/dev/null || die "$p is not installed"
	done
	[ -x "$lore" ] || die "build lore-am first (make)"
	keep=$work
	[ -n "$work" ] || work=$(mktemp -d)
	mkdir -p "$work" && work=$(cd "$work" && pwd)
	trap '[ -n "$keep" ] || rm -rf "$work"' EXIT
	export HOME=$work/home XDG_CACHE_HOME=$work/home/.cache
	export XDG_CONFIG_HOME=$work/home/.config
	export XDG_DATA_HOME=$work/home/.local/share
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$work/home/.gitconfig
	export LC_ALL=C.UTF-8 TZ=UTC
	mkdir -p "$HOME"
	git config --global user.name "Bench Maintainer"
	git config --global user.email "dev@example.org"
	git config --global lore-am.attestation-staleness-days 0
	git config --global b4.attestation-staleness-days 0
}
die() { echo "$_name: $*" >&2; exit 1; }
say() { echo "$_name: $*" >&2; }

# attest_compare NAME N LORE_CMD B4_CMD: lore-am with attestation off and
# on, b4 with b4.attestation-policy off and softfail, each timed by
# hyperfine; one Markdown row (medians and the on/off ratios) on stdout.
attest_compare() {
	local s=$1 n=$2 L=$3 B=$4

	hyperfine --style none --warmup 1 --min-runs "$runs" \
		--export-json "$work/$s.lore.json" \
		-n off "$L --no-attestation" -n on "$L" >/dev/null
	git config --global b4.attestation-policy off
	hyperfine --style none --warmup 1 --min-runs "$runs" \
		--export-json "$work/$s.b4off.json" -n off "$B" >/dev/null
	git config --global b4.attestation-policy softfail
	hyperfine --style none --warmup 1 --min-runs "$runs" \
		--export-json "$work/$s.b4on.json" -n on "$B" >/dev/null
	python3 - "$s" "$work/$s.lore.json" "$work/$s.b4off.json" \
		"$work/$s.b4on.json" "$n" <<'PYEOF'
import json, sys
s, lj, bo, bn, n = sys.argv[1:]
med = lambda r: r['median'] * 1000
l = json.load(open(lj))['results']
b0 = med(json.load(open(bo))['results'][0])
b1 = med(json.load(open(bn))['results'][0])
l0, l1 = med(l[0]), med(l[1])
print(f"| {s} ({n} signed patches) | {l0:.1f} ms | {l1:.1f} ms | {l1/l0:.2f} "
      f"| {b0:.0f} ms | {b1:.0f} ms | {b1/b0:.2f} |")
PYEOF
}
