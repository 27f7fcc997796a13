import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class BagOfEmbeddingsClassifier(nn.Module):
    def __init__(self, vocab: int, dim: int, n_classes: int):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.out = nn.Linear(dim, n_classes)

    def forward(self, tokens: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch classes"]:
        return self.out(self.emb(tokens))


def gold_log_probs(
    logits: Float[Tensor, "batch classes"], labels: Int[Tensor, " batch"]
) -> Float[Tensor, " batch"]:
    return logits.log_softmax(dim=-1).gather(1, labels.unsqueeze(1)).squeeze(1)


def weighted_nll(
    logits: Float[Tensor, "batch classes"],
    labels: Int[Tensor, " batch"],
    sample_weight: Float[Tensor, " batch"],
) -> Float[Tensor, ""]:
    logp = gold_log_probs(logits, labels)
    return -(logp * sample_weight).sum() / sample_weight.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BagOfEmbeddingsClassifier(vocab=100, dim=16, n_classes=4)
    tokens = torch.randint(0, 100, (6, 9))
    labels = torch.tensor([0, 3, 1, 1, 2, 0])
    class_weight = torch.tensor([0.5, 2.0, 1.0, 4.0])
    with torch.no_grad():
        logits = model(tokens)
        loss = weighted_nll(logits, labels, class_weight[labels])
        num, den = 0.0, 0.0
        for b in range(6):
            y = int(labels[b])
            w = float(class_weight[y])
            num += -w * float(torch.log_softmax(logits[b], dim=0)[y])
            den += w
    assert abs(loss.item() - num / den) < 1e-5, (loss.item(), num / den)
    print("ok")
