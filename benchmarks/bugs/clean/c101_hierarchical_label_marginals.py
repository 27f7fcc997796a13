import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def marginalise(
    fine_probs: Float[Tensor, "batch fine"], fine_to_coarse: Int[Tensor, " fine"], num_coarse: int
) -> Float[Tensor, "batch coarse"]:
    index = fine_to_coarse.unsqueeze(0).expand(fine_probs.size(0), -1)
    return fine_probs.new_zeros(fine_probs.size(0), num_coarse).scatter_add_(1, index, fine_probs)


def path_probabilities(
    cond: Float[Tensor, "batch nodes"], paths: list[Int[Tensor, " depth"]]
) -> Float[Tensor, "batch nodes"]:
    return torch.stack([cond.index_select(1, path).prod(dim=1) for path in paths], dim=1)


class TwoLevelClassifier(nn.Module):
    def __init__(self, in_dim: int, fine_to_coarse: Int[Tensor, " fine"], num_coarse: int):
        super().__init__()
        self.head = nn.Linear(in_dim, fine_to_coarse.numel())
        self.register_buffer("fine_to_coarse", fine_to_coarse)
        self.num_coarse = num_coarse

    def forward(self, x: Float[Tensor, "batch in_dim"]) -> tuple[Float[Tensor, "batch fine"], Float[Tensor, "batch coarse"]]:
        fine = self.head(x).softmax(dim=-1)
        return fine, marginalise(fine, self.fine_to_coarse, self.num_coarse)

    def loss(
        self, x: Float[Tensor, "batch in_dim"], fine_labels: Int[Tensor, " batch"], coarse_labels: Int[Tensor, " batch"]
    ) -> Float[Tensor, ""]:
        fine, coarse = self(x)
        p_fine = fine.gather(1, fine_labels.unsqueeze(1)).squeeze(1)
        p_coarse = coarse.gather(1, coarse_labels.unsqueeze(1)).squeeze(1)
        return -(p_fine.clamp(min=1e-8).log() + p_coarse.clamp(min=1e-8).log()).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    fine_to_coarse = torch.tensor([0, 0, 1, 1, 1, 2, 2, 3])
    model = TwoLevelClassifier(in_dim=5, fine_to_coarse=fine_to_coarse, num_coarse=4)
    x = torch.randn(7, 5)
    fine, coarse = model(x)
    ref = torch.stack([torch.stack([fine[b, fine_to_coarse == c].sum() for c in range(4)]) for b in range(7)])
    assert torch.allclose(coarse, ref, atol=1e-6)
    fine_labels = torch.randint(0, 8, (7,))
    loss = model.loss(x, fine_labels, fine_to_coarse[fine_labels])
    ref_loss = -torch.stack(
        [fine[b, fine_labels[b]].log() + coarse[b, fine_to_coarse[fine_labels[b]]].log() for b in range(7)]
    ).mean()
    assert torch.allclose(loss, ref_loss, atol=1e-5)
    cond = torch.rand(7, 5)
    paths = [torch.tensor([0]), torch.tensor([0, 2]), torch.tensor([0, 2, 4]), torch.tensor([1]), torch.tensor([1, 3])]
    probs = path_probabilities(cond, paths)
    for j, path in enumerate(paths):
        expected = torch.ones(7)
        for n in path.tolist():
            expected = expected * cond[:, n]
        assert torch.allclose(probs[:, j], expected)
    print("ok")
