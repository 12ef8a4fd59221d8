"""Exceptions of the inspection rules engine."""

from ironic_like.common import exception


class RuleEngineError(exception.IronicLikeException):
    """Base class: inspection must fail with this message."""

    msg_fmt = 'Inspection rules failed: %(reason)s'

    def __init__(self, message=None, rule_uuid=None, op=None, **kwargs):
        self.rule_uuid = rule_uuid
        self.op = op
        super().__init__(message, **kwargs)


class RuleFailed(RuleEngineError):
    """A "fail" action ran: the message is the one the rule gives."""


class RuleError(RuleEngineError):
    """A condition or an action could not be evaluated or applied."""


class OpError(Exception):
    """Raised by one operation (condition or action) with a message that
    tells what is wrong with its arguments or the data; the engine adds the
    rule and the operation and raises RuleError."""
