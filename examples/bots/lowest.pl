#!/usr/bin/perl
# A bot for `hearts match`, in Perl: passes its three highest cards, plays its lowest legal card.
#   hearts match heuristic 'exe:perl examples/bots/lowest.pl'
# One JSON request a line on stdin, one JSON answer a line on stdout (docs/match.md).
use strict;
use warnings;
use JSON::PP;

$| = 1;
my $json = JSON::PP->new->canonical;
my %rank;
@rank{split //, "23456789TJQKA"} = (0 .. 12);

while (my $line = <STDIN>) {
    my $request = $json->decode($line);
    my @legal = sort { $rank{substr($a, 0, 1)} <=> $rank{substr($b, 0, 1)} } @{ $request->{legal} };
    my @cards;
    if ($request->{kind} eq "pass") {
        my $count = $request->{count} // 3;
        @cards = @legal[-$count .. -1];
    } else {
        @cards = ($legal[0]);
    }
    print $json->encode({ cards => \@cards }), "\n";
}
