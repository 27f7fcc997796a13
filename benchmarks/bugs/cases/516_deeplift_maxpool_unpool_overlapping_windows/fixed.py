import torch
import torch.nn as nn
import torch.nn.functional as F


class MotifScanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 8, kernel_size=5, padding=2)
        self.pool = nn.MaxPool1d(kernel_size=4, stride=2, return_indices=True)
        self.head = nn.Linear(8 * 49, 1)

    def forward(self, x):
        h = torch.relu(self.conv(x))
        p, _ = self.pool(h)
        return self.head(p.flatten(1))


def maxpool_multipliers(model, x, reference):
    """Route the head's multipliers through the max-pool back to the conv activations."""
    h = torch.relu(model.conv(x))
    h_ref = torch.relu(model.conv(reference))
    p, idx = model.pool(h)
    p_ref, _ = model.pool(h_ref)
    w = model.head.weight.view(1, 8, 49)
    routed = w * (p - p_ref)
    delta_in = torch.zeros_like(h).scatter_add_(2, idx, routed)
    return delta_in, routed


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MotifScanner()
    onehot = F.one_hot(torch.randint(0, 4, (2, 100)), 4).float().transpose(1, 2)
    reference = torch.full_like(onehot, 0.25)
    with torch.no_grad():
        delta_in, routed = maxpool_multipliers(model, onehot, reference)

        # reference: walk every pooling window and hand its value to the winning position
        h = torch.relu(model.conv(onehot))
        ref = torch.zeros_like(h)
        B, C, L = h.shape
        for b in range(B):
            for c in range(C):
                for j in range(routed.shape[-1]):
                    window = h[b, c, 2 * j: 2 * j + 4]
                    ref[b, c, 2 * j + int(window.argmax())] += routed[b, c, j]
    assert torch.allclose(delta_in, ref, atol=1e-6)
    assert abs(delta_in.sum().item() - routed.sum().item()) < 1e-5
    print("ok")
