# lib-ty.sh - thank-you mails (lore-am ty, b4 ty) read back for the
# t95xx tests. Source after lib.sh and lib-series.sh.

# ty_norm FILE: the mail in FILE as the tests compare two of them: each
# header b4 ty writes, decoded, addresses one per line in their order,
# then the body; Message-Id and Date left out (each tool makes its own,
# ty_own checks them). Python's email package is the parser: b4's own.
ty_norm() {
	/usr/bin/python3 - "$1" <<'PY'
import email, email.policy, email.utils, sys
m = email.message_from_binary_file(open(sys.argv[1], 'rb'),
                                   policy=email.policy.default)
for h in ('From', 'To', 'Cc', 'In-Reply-To', 'References', 'Subject',
          'MIME-Version', 'Content-Type', 'Content-Transfer-Encoding'):
    vals = m.get_all(h) or []
    if len(vals) > 1:
        print('%s: DUPLICATED' % h)
    v = str(vals[0]) if vals else '(none)'
    if h in ('From', 'To', 'Cc'):
        for name, addr in email.utils.getaddresses([v]):
            print('%s: %s <%s>' % (h, name, addr))
    else:
        print('%s: %s' % (h, ' '.join(v.split())))
print()
print(m.get_content(), end='')
PY
}

# ty_own FILE: "ok" when the Message-Id is lore-am's (one, <...@domain>)
# and the Date is one, within a minute of now
ty_own() {
	/usr/bin/python3 - "$1" <<'PY'
import email, email.utils, re, sys, time
m = email.message_from_binary_file(open(sys.argv[1], 'rb'))
ids, dates = m.get_all('Message-Id') or [], m.get_all('Date') or []
ok = (len(ids) == 1 and re.fullmatch(r'<\d+\.\d+\.\d+\.lore-am-ty@[^<>@\s]+>', ids[0])
      and len(dates) == 1
      and abs(email.utils.parsedate_to_datetime(dates[0]).timestamp() - time.time()) < 60)
print('ok' if ok else 'bad: %r %r' % (ids, dates))
PY
}

# ty_same GOT WANT DESCRIPTION: the two mails the same but for what
# each tool makes its own (Message-Id, Date); the difference shown
ty_same() {
	ty_norm "$1" >"$TRASH/.ty.got" 2>&1
	ty_norm "$2" >"$TRASH/.ty.want" 2>&1
	if [ -s "$TRASH/.ty.want" ] && cmp -s "$TRASH/.ty.got" "$TRASH/.ty.want"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff -u "$TRASH/.ty.want" "$TRASH/.ty.got" | head -40 | sed 's/^/# /'
	fi
}
