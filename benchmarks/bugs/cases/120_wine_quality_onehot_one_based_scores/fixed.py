import torch
import torch.nn as nn

NUM_SCORES = 10  # quality is graded 1 (worst) .. 10 (best)


def load_batch(n):
    features = torch.rand(n, 11)  # [N, 11] physico-chemical measurements
    quality = torch.randint(3, 10, (n,))  # [N] graded quality, 1-based
    return features, quality


def one_hot_quality(quality):
    # quality: [N] scores in 1..NUM_SCORES
    onehot = torch.zeros(quality.shape[0], NUM_SCORES)  # [N, NUM_SCORES], column k <-> score k + 1
    onehot.scatter_(1, quality.unsqueeze(1) - 1, 1.0)
    return onehot


class QualityClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(11, 32), nn.ReLU(), nn.Linear(32, NUM_SCORES))

    def expected_score(self, features):
        probs = self.net(features).softmax(dim=-1)  # [N, NUM_SCORES]
        scores = torch.arange(1, NUM_SCORES + 1, dtype=probs.dtype)  # [NUM_SCORES]
        return probs @ scores  # [N]


def soft_target_loss(model, features, quality):
    targets = one_hot_quality(quality)  # [N, NUM_SCORES]
    log_probs = model.net(features).log_softmax(dim=-1)  # [N, NUM_SCORES]
    return -(targets * log_probs).sum(dim=-1).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    features, quality = load_batch(64)
    model = QualityClassifier()
    loss = soft_target_loss(model, features, quality)
    decoded = one_hot_quality(quality).argmax(dim=1) + 1
    assert bool((decoded == quality).all())
    ref = -torch.stack([model.net(features[i:i + 1]).log_softmax(-1)[0, quality[i] - 1] for i in range(64)]).mean()
    assert torch.allclose(loss, ref, atol=1e-6)
    print("ok")
