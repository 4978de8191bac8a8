# lib-attest.sh - what attest-bench.sh (DKIM) and patatt-bench.sh share,
# sourced by both. Uses their $runs and $work.

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
