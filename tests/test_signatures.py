"""The family's signature model (gather_lint.signatures) against torch's own argument parser.

Every call in a grid of argument kinds (positional and keyword, method and function form) is run in torch:
the model refuses a call exactly when torch raises TypeError for it. Kinds are taken from the real values by
the runtime's `kind_of`, so the grid checks that mapping too."""
import itertools

import pytest

torch = pytest.importorskip("torch")

from gather_lint.ops import OPS  # noqa: E402
from gather_lint.runtime.argument_rejections import kind_of  # noqa: E402
from gather_lint.signatures import refusal  # noqa: E402


def _pool():
    """Argument values of every kind the parser tells apart."""
    return [
        ("int", lambda: 1),
        ("index", lambda: torch.zeros(3, 4, dtype=torch.long)),
        ("src", lambda: torch.ones(3, 4)),
        ("float", lambda: 2.0),
        ("str", lambda: "sum"),
        ("list", lambda: [0, 1]),
        ("scalar_tensor", lambda: torch.tensor(1.0)),
        ("int_scalar_tensor", lambda: torch.tensor(1)),
        ("bool", lambda: True),
        ("none", lambda: None),
    ]


_KEYWORDS = ("dim", "index", "indices", "src", "source", "value", "reduce", "alpha", "include_self",
             "sparse_grad", "out", "input")


def _raises_type_error(call) -> bool:
    try:
        call()
    except TypeError:
        return True
    except Exception:  # noqa: BLE001 (a shape or value error: the parser took the arguments)
        return False
    return False


def _cases():
    pool = _pool()
    for name, op in sorted(OPS.items()):
        forms = [True] + ([False] if op.has_function else [])
        for method in forms:
            for n in range(4):
                for combo in itertools.product(pool, repeat=n):
                    yield name, method, combo, ()
            for n in range(3):
                for combo in itertools.product(pool[:4], repeat=n):
                    for keyword in _KEYWORDS:
                        for value in (pool[0], pool[1], pool[2], pool[3], pool[4]):
                            yield name, method, combo, ((keyword, value),)


def _run(name, method, combo, keywords):
    args = [make() for _, make in combo]
    kwargs = {k: make() for k, (_, make) in keywords}
    x = torch.zeros(3, 4)
    if method:
        return lambda: getattr(x.clone(), name)(*args, **kwargs), args, kwargs
    return lambda: getattr(torch, name)(x, *args, **kwargs), [x] + args, kwargs


@pytest.mark.parametrize("name", sorted(OPS))
def test_refusal_matches_torch(name):
    mismatches = []
    checked = 0
    for op_name, method, combo, keywords in _cases():
        if op_name != name:
            continue
        call, args, kwargs = _run(op_name, method, combo, keywords)
        found = refusal(OPS[op_name], method, [kind_of(a) for a in args], {k: kind_of(v) for k, v in kwargs.items()})
        raises = _raises_type_error(call)
        checked += 1
        if (found is not None) != raises:
            shown = ", ".join([label for label, _ in combo] + [f"{k}={label}" for k, (label, _) in keywords])
            mismatches.append(f"{'Tensor.' if method else 'torch.'}{op_name}({shown}): model "
                              f"{'refuses' if found else 'takes'}, torch {'raises TypeError' if raises else 'takes'}")
    assert checked > 1000
    assert not mismatches, "\n".join(mismatches[:20]) + f"\n({len(mismatches)} in all)"


def test_unknown_arguments_are_never_refused():
    """An argument of unknown kind fits every parameter: only what is known can rule an overload out."""
    op = OPS["scatter_add"]
    assert refusal(op, True, [None, None, None], {}) is None
    assert refusal(op, True, [None, None], {"src": None}) is None
    assert refusal(op, True, [None, None], {}) is not None  # src is missing, whatever the others are
