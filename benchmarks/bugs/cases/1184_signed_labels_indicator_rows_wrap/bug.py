import torch
from jaxtyping import Float, Int


def class_indicators(labels: Int[torch.Tensor, "n"], num_classes: int) -> Float[torch.Tensor, "n k"]:
    eye = torch.eye(num_classes)
    return eye[labels]


def fit_least_squares(x: Float[torch.Tensor, "n d"], targets: Float[torch.Tensor, "n k"],
                      ridge: float = 1e-3) -> Float[torch.Tensor, "d k"]:
    d = x.shape[1]
    gram = x.T @ x + ridge * torch.eye(d)
    return torch.linalg.solve(gram, x.T @ targets)


def predict(x: Float[torch.Tensor, "n d"], w: Float[torch.Tensor, "d k"]) -> Int[torch.Tensor, "n"]:
    return (x @ w).argmax(dim=-1)


def load_binary_task(n: int = 200, d: int = 5, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    w_true = torch.randn(d, generator=g)
    y = torch.where(x @ w_true > 0, 1, -1)      # labels in {-1, +1}
    return x, y


if __name__ == "__main__":
    x, y = load_binary_task()
    targets = class_indicators(y, num_classes=2)
    w = fit_least_squares(x, targets)
    pred = predict(x, w)
    truth = (y > 0).long()
    print("indicator column sums:", targets.sum(0).tolist())
    print("train accuracy:", (pred == truth).float().mean().item())
