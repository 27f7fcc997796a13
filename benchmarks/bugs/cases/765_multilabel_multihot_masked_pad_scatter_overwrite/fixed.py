import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import nn


def labels_to_multi_hot(
    labels: Int[torch.Tensor, "batch max_labels"], num_classes: int, pad_id: int = -1
) -> Float[torch.Tensor, "batch num_classes"]:
    valid: Int[torch.Tensor, "batch max_labels"] = (labels != pad_id).long()
    target = torch.zeros(labels.shape[0], num_classes)
    target.scatter_reduce_(1, labels * valid, valid.float(), reduce="amax")
    return target


class TagHead(nn.Module):
    def __init__(self, dim: int, num_tags: int):
        super().__init__()
        self.num_tags = num_tags
        self.proj = nn.Linear(dim, num_tags)

    def forward(
        self, pooled: Float[torch.Tensor, "batch dim"], labels: Int[torch.Tensor, "batch max_labels"]
    ) -> tuple[Float[torch.Tensor, ""], Float[torch.Tensor, "batch num_tags"]]:
        logits = self.proj(pooled)
        target = labels_to_multi_hot(labels, self.num_tags)
        return F.binary_cross_entropy_with_logits(logits, target), target


if __name__ == "__main__":
    torch.manual_seed(0)
    head = TagHead(dim=8, num_tags=5)
    pooled = torch.randn(4, 8)
    labels = torch.tensor([[0, -1, -1], [0, 3, -1], [1, 0, 4], [2, -1, -1]])
    loss, target = head(pooled, labels)
    expected = [[0.0] * 5 for _ in range(4)]
    for b, row in enumerate(labels.tolist()):
        for tag in row:
            if tag != -1:
                expected[b][tag] = 1.0
    assert target.tolist() == expected, target
    print("ok")
