#!/bin/bash
# Settings from git config: lore-am.* first, b4.* as the fallback.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 9

series_repo "$TRASH/repo" 1 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --to="List <list@example.org>" --cc="Carol <carol@example.org>"
p=$(ls "$TRASH/p"/*)
id=$(msgid_of "$p")
reply "$TRASH/r1" "$p" "Tina Tester <tina@example.com>" "Tested-by: Tina Tester <tina@example.com>"
reply "$TRASH/r2" "$p" "Rita Reviewer <rita@example.com>" "Reviewed-by: Rita Reviewer <rita@example.com>"
to_mbox "$TRASH/t.mbox" "$p" "$TRASH/r1" "$TRASH/r2"
run() { "$LORE_AM" -q -m "$TRASH/t.mbox" "$@" "$id" | sed -n '/^Signed-off-by: Pat/,/^---$/p' | sed '1d;$d'; }

is "$(run)" "Tested-by: Tina Tester <tina@example.com>
Reviewed-by: Rita Reviewer <rita@example.com>" "trailers in the order received"
git config --global b4.trailer-order 'Reviewed*,*'
is "$(run | head -1)" "Reviewed-by: Rita Reviewer <rita@example.com>" "b4.trailer-order is honoured"
git config --global lore-am.trailer-order 'Tested*,*'
is "$(run | head -1)" "Tested-by: Tina Tester <tina@example.com>" "lore-am.trailer-order wins over b4's"
git config --global lore-am.trailers-ignore-from 'tina@example.com'
is "$(run)" "Reviewed-by: Rita Reviewer <rita@example.com>" "lore-am.trailers-ignore-from drops a sender"
git config --global --unset lore-am.trailers-ignore-from
is "$(run -l | tail -1)" "Link: https://patch.msgid.link/$id" "-l adds the default Link"
git config --global lore-am.linkmask 'https://lore.example.org/r/%s'
is "$(run -l | tail -1)" "Link: https://lore.example.org/r/$id" "lore-am.linkmask sets its URL"
git config --global b4.linktrailermask 'Message-ID: <%s>'
is "$(run -l | tail -1)" "Message-ID: <$id>" "b4.linktrailermask sets the whole trailer"
git config --global b4.linktrailermask 'Link: %n%x%s'
is "$(run -l | tail -1)" "Link: %n%x$id" "a mask is no printf format"
git config --global --unset b4.linktrailermask
is "$(run --cc-trailers | grep '^Cc:' | tr '\n' '|')" \
   "Cc: Carol <carol@example.org>|Cc: List <list@example.org>|" "--cc-trailers copies To and Cc"
done_testing
