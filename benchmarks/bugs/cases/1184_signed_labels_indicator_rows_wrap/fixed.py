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
    class_ids = (y + 1) // 2                    # {-1, +1} -> {0, 1}
    targets = class_indicators(class_ids, num_classes=2)
    for i in range(y.shape[0]):
        expected = [1.0, 0.0] if int(y[i]) == -1 else [0.0, 1.0]
        assert targets[i].tolist() == expected
    w = fit_least_squares(x, targets)
    pred = predict(x, w)
    truth = (y > 0).long()
    assert (pred == truth).float().mean().item() > 0.8
    print("ok")
