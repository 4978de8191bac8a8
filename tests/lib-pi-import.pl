#!/usr/bin/perl
# lib-pi-import.pl NAME FILE... - deliver each FILE (one message) to the
# public-inbox inbox NAME of $PI_CONFIG, in one process.
#
# lib-pi.sh's pi_add_inbox runs this once per inbox. It takes the path
# public-inbox-mda takes for a message (leading From_ line dropped, the
# inbox's filter, List-Id added when missing, the inbox's importer), so an
# inbox holds what per-message -mda runs gave it, without starting Perl
# and public-inbox once per message. Exit status 1 and "lib-pi: ..." on
# stderr when a message cannot be delivered.
use strict;
use warnings;
use PublicInbox::Config;
use PublicInbox::Eml;
use PublicInbox::Filter::Base;
use PublicInbox::InboxWritable;
use PublicInbox::MDA;

my ($name, @files) = @ARGV;
defined $name or die "usage: lib-pi-import.pl NAME FILE...\n";
my $cfg = PublicInbox::Config->new;
my $ibx = $cfg->lookup_name($name) or die "lib-pi: no inbox '$name'\n";
$ibx = PublicInbox::InboxWritable->new($ibx);
$ibx->assert_usable_dir;
# -mda falls back to the strict base filter; the inboxes here name theirs
$ibx->{filter} ||= 'PublicInbox::Filter::Base';
my $filter = $ibx->filter;
my $im = $ibx->importer(0);
my $n = 0;
for my $f (@files) {
	$n++;
	open(my $fh, '<:raw', $f) or die "lib-pi: $f: $!\n";
	my $str = do { local $/; <$fh> };
	close $fh;
	$str =~ s/\A[\r\n]*From [^\r\n]*\r?\n//s;
	my $mime = PublicInbox::Eml->new($str);
	my $ret = $filter->delivery($mime);
	if (ref($ret) && $ret->isa('PublicInbox::Eml')) {
		$mime = $ret;
	} elsif ($ret == PublicInbox::Filter::Base::IGNORE) {
		next;
	} elsif ($ret == PublicInbox::Filter::Base::REJECT) {
		die "lib-pi: message $n rejected: " . ($filter->err // '') .
			"\n";
	}
	PublicInbox::MDA->set_list_headers($mime, $ibx);
	# v1 refuses a Message-ID it holds (-mda says so and goes on)
	defined($im->add($mime)) or
		warn "lib-pi: message $n: Message-ID exists, not added\n";
}
$im->done;
