"""Video meeting: scheduled meetings with hosts, invitees, passcodes and a waiting room; live sessions with their participants; cloud recordings and transcripts."""
