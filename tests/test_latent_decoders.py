"""GL007's causal-by-construction evidence leaves out recurrent autoencoders: a class that builds an encoder
and a decoder RNN, or spreads a latent state over time, reconstructs each token at its own position
legitimately; a single recurrent LM over the embedded ids is still causal."""
import textwrap

import pytest

from .conftest import lint

SCRIPT = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.emb = nn.Embedding(vocab, width)
        {LAYERS}
        self.out = nn.Linear(width, vocab)

    def forward(self, x):
        {FORWARD}
        return self.out(h)


if __name__ == "__main__":
    net = Net(20, 8)
    x = torch.randint(0, 20, (4, 7))
    loss = F.cross_entropy(net(x).view(-1, 20), x.view(-1))
'''

LM = ("self.rnn = nn.LSTM(width, width, batch_first=True)", "h, _ = self.rnn(self.emb(x))")
TWO_RNNS = ("self.enc = nn.LSTM(width, width, batch_first=True)\n        self.dec = nn.LSTM(width, width, batch_first=True)",
            "_, (state, _) = self.enc(self.emb(x))\n        h, _ = self.dec(self.emb(x), (state, torch.zeros_like(state)))")
LATENT = ("self.enc = nn.Linear(width, width)\n        self.dec = nn.GRU(width, width, batch_first=True)",
          "z = self.enc(self.emb(x).mean(1))\n        h, _ = self.dec(z.unsqueeze(1).repeat(1, x.size(1), 1))")


def _found(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


@pytest.mark.parametrize("layers, forward, fires", [(*LM, True), (*TWO_RNNS, False), (*LATENT, False)],
                         ids=["recurrent-lm", "encoder-decoder", "latent-decoder"])
def test_recurrent_evidence(layers, forward, fires):
    code = SCRIPT.replace("{LAYERS}", layers).replace("{FORWARD}", forward)
    assert (_found(code) == [("GL007", _line_of(code, "loss = F.cross_entropy"))]) == fires


def test_torch_a_latent_decoder_reads_every_token_at_every_position(torch):
    torch.manual_seed(0)
    emb, enc, dec = torch.nn.Embedding(20, 8), torch.nn.Linear(8, 8), torch.nn.GRU(8, 8, batch_first=True)

    def decode(x):
        z = enc(emb(x).mean(1))
        return dec(z.unsqueeze(1).repeat(1, x.size(1), 1))[0]

    x = torch.randint(0, 20, (1, 7))
    changed = x.clone()
    changed[0, 6] = (x[0, 6] + 1) % 20
    # position 0 already depends on the last token: not a causal model, reconstruction is its job
    assert not torch.allclose(decode(x)[0, 0], decode(changed)[0, 0])
