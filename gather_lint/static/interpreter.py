"""A per-function abstract interpreter: walks statements in order, tracks tensor facts, checks sites.

Facts come from (most trusted first) pragmas, jaxtyping/torchtyping annotations, shape comments,
docstrings, constructors and `.shape` bindings, then flow through shape ops. Branches keep what
both sides agree on; loops forget what their body reassigns. Unknown stays unknown."""
from __future__ import annotations

import ast
from typing import Callable, Dict, List, Optional

from .calls import fill_gaps, share_sizes
from .declared_facts import all_sizes_known as _sizes_proved
from .comment_facts import CommentLines
from .interp_helpers import _TERMINAL
from . import autograd_ctx, closure_facts, global_facts, passed_columns, renamed_sizes
from .source import SourceFile
from .statements import StatementMixin
from .declared_facts import DeclaredFactsMixin
from .expressions import ExpressionMixin
from .call_eval import CallMixin
from .dataflow_checks import DataflowCheckMixin
from .overwrite_writes import OverwriteWriteMixin


class Interpreter(StatementMixin, DeclaredFactsMixin, ExpressionMixin, CallMixin, DataflowCheckMixin,
                  OverwriteWriteMixin):
    """Analyses one function (or the module body) with its own environment."""

    def __init__(self, source: SourceFile, module_names: Dict[str, object], report: Callable[..., None],
                 flag: Optional[Callable[..., None]] = None):
        self.source = source
        self.env: Dict[str, object] = dict(module_names)
        self.report = report
        self.flag = flag or (lambda *a: None)  # (node, violation, node to fix) for dataflow rules
        self.module = None  # the module's functions and classes (calls.ModuleContext), for calls
        self.returns: list = []
        self.yields: list = []  # a generator's items (calls.result_of)
        self.call_depth = 0
        # names whose facts rest on a shape comment: good evidence next to the code they describe,
        # too informal to carry into another function (see calls.py)
        self.informal: set = set()
        self._comment_used = False
        self.class_name: Optional[str] = None  # set while analysing a method
        self.instance = None  # modules.InstanceVal whose method this is, when called on a known instance
        # the lines of the calls whose facts this run has, innermost first (calls.py); () for its own facts
        self.facts_from_calls: tuple = ()
        self.reports = True  # False for a run that only computes a result (calls.py: a quiet run)
        self.in_function = False  # False for the module body: a script's driver
        self.function = None  # the def being analysed (None for the module body)
        self.depth = 0
        self.writing_loops = ()  # the enclosing `for` statements, innermost last (written_windows)
        # how many `if` branches the analysis is inside whose test it could not decide: code there may be
        # the path for other inputs (`if video: b, c, t, h, w = x.shape`)
        self.undecided_branches = 0
        # of those, how many test a parameter (`if video:`): the caller picks the path, and under one
        # caller's facts the branch may be the path another caller takes with other ranks
        self.parameter_branches = 0
        self.two_armed_ifs: tuple = ()  # where each `if` with an `else` whose arm is being run starts
        self._last_value_node = None
        self.params: set = set()
        self.given_tensors: frozenset = frozenset()  # parameters the caller handed a tensor it made (passed_tensors)
        self.passed_tensors: dict = {}  # those parameters' values as bound
        self.sorted_inputs: dict = {}  # a sort's mark token -> the tensor it sorted (permutation_order, GL034)
        self.size_renames: dict = {}  # a callee's declared size name -> the caller's size (renamed_sizes)
        self.trace: Optional[list] = None  # (line, name, value) of every binding, for `gather-lint shapes`
        self.comments = CommentLines(source, 0)

    # ----- entry points -------------------------------------------------------------------------
    def run_function(self, node, caller_facts: Optional[Dict[str, object]] = None) -> None:
        self.comments = CommentLines(self.source, node.lineno, node.end_lineno or node.lineno)
        self.in_function = True
        self.function = node  # for checks that look at the whole body (index_values, broadcast_axis)
        self._bind_parameters(node)
        if self.module is not None:
            closure_facts.bind(self, node)  # names it reads from the function that defines it
            global_facts.bind(self, node)  # module-level names it reads
        self._def_line_comments(node)
        if self.module is not None and self.class_name is None:
            self.class_name = self.module.class_of.get(node)
        if self.module is not None and self.class_name is not None and getattr(node, "name", "") != "__init__":
            facts = self.instance.facts if self.instance is not None and self.instance.facts else ()
            self.env.update(self.module.attributes(self.class_name, facts))
        for name, fact in (caller_facts or {}).items():
            declared = self.env.get(name)
            renamed_sizes.note(self.size_renames, declared, fact)  # the callee's size names, the caller's sizes
            self.env[name] = fill_gaps(declared, fact)  # the callee's own annotations win
            if name in self.given_tensors:
                self.passed_tensors[name] = self.env[name]  # a tensor on this path (passed_tensors)
            passed_columns.note(self, name, declared, self.env[name])
            if name in self.informal and _sizes_proved(fact):
                # a comment atop the body only names the sizes the caller's code proved: not informal here
                self.informal.discard(name)
        if caller_facts:
            share_sizes(self.env, self.params)  # a declared name is one size in every parameter
        autograd_ctx.bind(self, node)  # a custom Function's backward: what its forward left on ctx
        self.block(node.body)

    def block(self, body: List[ast.stmt]) -> bool:
        """Run statements in order; True when the block always leaves (return/raise/...)."""
        for stmt in body:
            self._comments_before(stmt)
            if self.stmt(stmt) or isinstance(stmt, _TERMINAL):  # an `if` may leave on every path (stmt_If)
                return True
        return False

    def _span(self, node) -> Optional[tuple]:
        """A node's 1-based character span, where a fix at the cause (not at the call) edits."""
        if getattr(node, "end_lineno", None) is None:
            return None
        return (node.lineno, self.source.char_col(node.lineno, node.col_offset) + 1,
                node.end_lineno, self.source.char_col(node.end_lineno, node.end_col_offset) + 1)
