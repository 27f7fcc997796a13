import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class LogisticCumulativeLink(nn.Module):
    def __init__(self, num_classes: int):
        super().__init__()
        self.cutpoints = nn.Parameter(torch.arange(num_classes - 1, dtype=torch.float) - (num_classes - 2) / 2)

    def forward(self, score: Float[Tensor, "n 1"]) -> Float[Tensor, "n k"]:
        sig = torch.sigmoid(self.cutpoints - score)
        return torch.cat([sig[:, :1], sig[:, 1:] - sig[:, :-1], 1.0 - sig[:, -1:]], dim=1)


class OrdinalLogisticModel(nn.Module):
    def __init__(self, predictor: nn.Module, num_classes: int):
        super().__init__()
        self.predictor = predictor
        self.link = LogisticCumulativeLink(num_classes)

    def forward(self, x: Float[Tensor, "n d"]) -> Float[Tensor, "n k"]:
        return self.link(self.predictor(x.float()))


def cumulative_link_loss(y_pred: Float[Tensor, "n k"], y_true: Int[Tensor, "n 1"],
                         eps: float = 1e-15) -> Float[Tensor, ""]:
    likelihoods = torch.clamp(torch.gather(y_pred, 1, y_true), eps, 1 - eps)
    return -torch.log(likelihoods).mean()


def fit(model: nn.Module, X: Float[Tensor, "n d"], y: Int[Tensor, "n 1"], epochs: int = 5) -> float:
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(epochs):
        opt.zero_grad()
        loss = cumulative_link_loss(model(X), y)
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    pred_dosages = torch.rand(32, 1) * 2.0
    true_dosages = torch.bucketize(pred_dosages.squeeze(1), torch.tensor([0.7, 1.4])).unsqueeze(1)
    num_classes = int(true_dosages.unique().numel())
    model = OrdinalLogisticModel(nn.Identity(), num_classes)
    with torch.no_grad():
        probs = model(pred_dosages)
        got = cumulative_link_loss(probs, true_dosages).item()
    ref = 0.0
    for i in range(probs.size(0)):
        p = min(max(float(probs[i, int(true_dosages[i, 0])]), 1e-15), 1 - 1e-15)
        ref -= torch.log(torch.tensor(p, dtype=torch.float64)).item()
    ref /= probs.size(0)
    assert abs(got - ref) < 1e-5, (got, ref)
    fit(model, pred_dosages, true_dosages)
    print("ok")
