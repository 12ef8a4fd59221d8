"""Boot-session operators (seed 000): each a small class with the seed's
loop (find work, act, record, sleep) on base.Operator. Node-level ones
act on the nodes this conductor owns on the hash ring; session-level ones
on the sessions whose name the ring maps to this conductor."""
