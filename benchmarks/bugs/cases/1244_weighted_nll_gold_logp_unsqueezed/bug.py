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
    return logits.log_softmax(dim=-1).gather(1, labels.unsqueeze(1))


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
    loss = weighted_nll(model(tokens), labels, class_weight[labels])
    ref = nn.functional.cross_entropy(model(tokens), labels, weight=class_weight)
    print("weighted nll:", loss.item(), "cross_entropy(weight=...):", ref.item())
