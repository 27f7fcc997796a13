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
    delta_in = F.max_unpool1d(routed, idx, kernel_size=4, stride=2, output_size=h.shape[-1:])
    return delta_in, routed


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MotifScanner()
    onehot = F.one_hot(torch.randint(0, 4, (2, 100)), 4).float().transpose(1, 2)
    reference = torch.full_like(onehot, 0.25)
    delta_in, routed = maxpool_multipliers(model, onehot, reference)
    print("routed contribution:", routed.sum().item())
    print("contribution reaching conv layer:", delta_in.sum().item())
