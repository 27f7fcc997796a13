"""nn.LSTM / nn.GRU / nn.RNN results: the output and the final state h_n ([num_layers x directions, batch,
hidden], batch-first or not; LSTM's (h_n, c_n)). Each layer runs here in torch on the same input, and every
shape the analysis states for the same code (`gather-lint shapes`' facts) is torch's."""
import pytest

from gather_lint.static.analyzer import explain_shapes

# (constructor, input shape)
LAYERS = [
    ("nn.LSTM(8, 16, num_layers=2, batch_first=True)", (4, 7, 8)),
    ("nn.LSTM(8, 16, 3)", (7, 4, 8)),
    ("nn.GRU(8, 32)", (5, 3, 8)),
    ("nn.GRU(8, 16, 3, True, True)", (4, 6, 8)),
    ("nn.GRU(8, 16, bidirectional=True, batch_first=True)", (2, 5, 8)),
    ("nn.RNN(8, 12, num_layers=2)", (6, 8)),
    ("nn.LSTM(8, 10, bidirectional=True)", (5, 8)),
]


def _program():
    parts = ["import torch", "import torch.nn as nn", ""]
    for k, (layer, shape) in enumerate(LAYERS):
        state = "(h_n, c_n)" if "LSTM" in layer else "h_n"
        parts.append(f"def case_{k}():\n    x = torch.randn{shape}\n    layer = {layer}\n    out, {state} = layer(x)\n"
                     f"    return out\n")
    return "\n".join(parts)


def _stated():
    stated = {}
    for function, _, trace in explain_shapes(_program(), "layers.py"):
        for _, variable, fact in trace:
            if variable in ("out", "h_n", "c_n") and fact.shape is not None and not fact.shape.variadic:
                stated[(int(function[len("case_"):]), variable)] = tuple(fact.shape.dims)
    return stated


def test_recurrent_outputs_and_states_are_torchs(torch):
    import torch.nn as nn
    stated = _stated()
    for k, (layer, shape) in enumerate(LAYERS):
        out, state = eval(layer, {"nn": nn})(torch.randn(*shape))
        ran = {"out": tuple(out.shape)}
        if isinstance(state, tuple):
            ran["h_n"], ran["c_n"] = tuple(state[0].shape), tuple(state[1].shape)
        else:
            ran["h_n"] = tuple(state.shape)
        for variable, dims in ran.items():
            assert stated.get((k, variable)) == dims, (layer, shape, variable, stated.get((k, variable)), dims)


def test_a_named_hidden_size_is_the_state_width():
    program = """
import torch.nn as nn

class Encoder(nn.Module):
    def __init__(self, dim, hidden: int):
        super().__init__()
        self.rnn = nn.GRU(dim, hidden, batch_first=True)

    def forward(self, x):
        # x: [B, T, D]
        out, h_n = self.rnn(x)
        return h_n
"""
    facts = {variable: fact for function, _, trace in explain_shapes(program, "enc.py") if function == "forward"
             for _, variable, fact in trace}
    assert str(facts["h_n"].shape) == "[1, B, hidden]"
    assert str(facts["out"].shape) == "[B, T, hidden]"
