"""The order in which steps of equal priority run, as Ironic orders them:
when two clean or deploy steps share a priority, the step of the
interface ranked higher here runs first (Ironic's
CLEANING_INTERFACE_PRIORITY and DEPLOYING_INTERFACE_PRIORITY, which are
equal). Steps of one interface and one priority keep their given order
(sorted() is stable).

Automated cleaning and deploys sort by it; manual cleaning and servicing
run the steps in the order they were requested, as Ironic does."""

# Higher runs first among equal priorities.
INTERFACE_RANK = {
    'vendor': 7,
    'power': 6,
    'management': 5,
    'firmware': 4,
    'deploy': 3,
    'bios': 2,
    'raid': 1,
}


def sort_key(step):
    """The key of ``step`` (a dict with priority and interface) for a
    highest-first sort: priority, then its interface's rank (an interface
    not ranked comes last)."""
    return (step.get('priority') or 0,
            INTERFACE_RANK.get(step.get('interface'), 0))


def in_order(steps):
    """``steps`` as they run: highest priority first; among equal
    priorities, by interface rank; otherwise in their given order."""
    return sorted(steps, key=sort_key, reverse=True)
