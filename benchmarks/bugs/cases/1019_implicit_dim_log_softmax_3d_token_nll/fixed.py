import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int


class TinyDecoder(nn.Module):
    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab_size)

    def forward(self, tokens: Int[torch.Tensor, "batch time"]) -> Float[torch.Tensor, "batch time vocab"]:
        h, _ = self.rnn(self.embed(tokens))
        return self.out(h)


def sequence_nll(
    logits: Float[torch.Tensor, "batch time vocab"],
    targets: Int[torch.Tensor, "batch time"],
    mask: Float[torch.Tensor, "batch time"],
) -> Float[torch.Tensor, ""]:
    log_probs = F.log_softmax(logits, dim=-1)
    token_logp = log_probs.gather(2, targets.unsqueeze(2)).squeeze(2)
    return -(token_logp * mask).sum() / mask.sum()


def train_step(model, batch, optimizer):
    logits = model(batch["inputs"])
    loss = sequence_nll(logits, batch["targets"], batch["mask"])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyDecoder(vocab_size=20, hidden=16)
    seq = torch.randint(1, 20, (3, 9))
    batch = {"inputs": seq[:, :-1], "targets": seq[:, 1:], "mask": torch.ones(3, 8)}
    with torch.no_grad():
        logits = model(batch["inputs"])
        ref = 0.0
        for b in range(3):
            for t in range(8):
                row = logits[b, t]
                lse = torch.log(torch.exp(row - row.max()).sum()) + row.max()
                ref += -(row[batch["targets"][b, t]] - lse).item()
        ref /= 24
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = train_step(model, batch, optimizer)
    assert abs(loss - ref) < 1e-4, (loss, ref)
    print("ok")
