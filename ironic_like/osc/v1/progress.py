"""The progress of a ``--wait`` over counts of nodes (a boot session, a
host OS rollout): a bar redrawn in place on a terminal, a plain line at
each change elsewhere, with the elapsed time and an ETA."""

import collections
import shutil

BAR_WIDTH = 20

# What a progress shows of the documents it is given:
# - counts(doc): {<key>: count, ..., 'total', 'done', 'percent'};
# - state(doc): the state or status the plain line names;
# - keys: the count keys, in the order of the lines;
# - short_labels: {key: label} of the terminal line;
# - plain_line(name, state, counts, elapsed, base): the plain line;
# - fraction: the terminal line shows 'done/total' after the percent.
View = collections.namedtuple(
    'View', 'counts state keys short_labels plain_line fraction')


def is_number(value):
    """Whether ``value`` is a count or a percent (a number, not a
    boolean)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def duration(seconds):
    """'1:05' (m:ss), or '2:01:05' (h:mm:ss) from an hour."""
    seconds = int(max(0, seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return '%d:%02d:%02d' % (hours, minutes, secs)
    return '%d:%02d' % (minutes, secs)


def eta(counts, elapsed, base=(0.0, 0)):
    """Seconds left at the rate of completion so far: nodes done since
    ``base`` (elapsed, done: the first poll) over the time since (None:
    no rate yet)."""
    done, total = counts['done'], counts['total']
    if total and done >= total:
        return 0
    base_elapsed, base_done = base
    if done <= base_done or elapsed <= base_elapsed:
        return None
    return (total - done) * (elapsed - base_elapsed) / float(done
                                                             - base_done)


def format_eta(counts, elapsed, base=(0.0, 0)):
    left = eta(counts, elapsed, base)
    return '?' if left is None else duration(left)


def bar(percent, width=BAR_WIDTH):
    filled = int(width * percent / 100.0)
    return '[%s%s]' % ('#' * filled, '-' * (width - filled))


def tty_line(view, counts, elapsed, base=(0.0, 0)):
    """The progress line redrawn on a terminal."""
    return '%s %3d%% %s%s  %s ETA %s' % (
        bar(counts['percent']), int(counts['percent']),
        '%d/%d ' % (counts['done'], counts['total']) if view.fraction
        else '',
        ' '.join('%s:%d' % (view.short_labels[k], counts[k])
                 for k in view.keys),
        duration(elapsed), format_eta(counts, elapsed, base))


class CountsProgress(object):
    """Progress of ``name`` on ``stream``, as ``view`` shows its
    documents: on a terminal one line redrawn in place (kept when done);
    elsewhere a plain line each time the state or the counts change."""

    def __init__(self, stream, name, view, width=None):
        self.stream = stream
        self.name = name
        self.view = view
        try:
            self.tty = bool(stream.isatty())
        except (AttributeError, ValueError):
            self.tty = False
        if width is None:
            width = shutil.get_terminal_size((80, 24)).columns
        self.width = max(20, width)
        self._drawn = 0
        self._last = None
        self._base = None

    def update(self, doc, elapsed):
        counts = self.view.counts(doc)
        if self._base is None:
            self._base = (elapsed, counts['done'])
        if self.tty:
            text = tty_line(self.view, counts, elapsed,
                            self._base)[:self.width - 1]
            padding = ' ' * max(0, self._drawn - len(text))
            self.stream.write('\r' + text + padding)
            self._drawn = len(text)
        else:
            state = self.view.state(doc)
            key = (state, counts['total']) + tuple(counts[k]
                                                   for k in self.view.keys)
            if key == self._last:
                return
            self._last = key
            self.stream.write(self.view.plain_line(
                self.name, state, counts, elapsed, self._base) + '\n')
        self.stream.flush()

    def finish(self):
        """End the redrawn line (it stays on the screen)."""
        if self.tty and self._drawn:
            self.stream.write('\n')
            self.stream.flush()
        self._drawn = 0
