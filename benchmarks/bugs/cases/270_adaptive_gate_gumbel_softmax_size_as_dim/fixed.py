import torch
import torch.nn as nn
import torch.nn.functional as F


class GumbleSoftmax(nn.Module):
    """Gumbel-Softmax sampler. Requires 2D input [batchsize, number of categories]."""

    def __init__(self, hard=False):
        super().__init__()
        self.hard = hard

    def sample_gumbel_like(self, template_tensor, eps=1e-10):
        uniform_samples_tensor = template_tensor.clone().uniform_()
        return -torch.log(eps - torch.log(uniform_samples_tensor + eps))

    def gumbel_softmax_sample(self, logits, temperature):
        """Draw a sample from the Gumbel-Softmax distribution."""
        dim = -1
        gumble_samples_tensor = self.sample_gumbel_like(logits.data)
        gumble_trick_log_prob_samples = logits + gumble_samples_tensor
        return F.softmax(gumble_trick_log_prob_samples / temperature, dim)

    def gumbel_softmax(self, logits, temperature, hard=False):
        """Sample from the Gumbel-Softmax distribution and optionally discretize.

        Args:
            logits: [batch_size, n_class] unnormalized log-probs
            temperature: non-negative scalar
            hard: if True, take argmax, but differentiate w.r.t. soft sample y

        Returns:
            [batch_size, n_class] sample from the Gumbel-Softmax distribution; one-hot when hard=True.
        """
        y = self.gumbel_softmax_sample(logits, temperature)
        if hard:
            _, max_value_indexes = y.data.max(1, keepdim=True)
            y_hard = logits.data.clone().zero_().scatter_(1, max_value_indexes, 1)
            y = (y_hard - y.data) + y
        return y

    def forward(self, logits, temp=1, force_hard=False):
        if self.training and not force_hard:
            return self.gumbel_softmax(logits, temperature=temp, hard=False)
        return self.gumbel_softmax(logits, temperature=temp, hard=True)


class GatedBasicBlock(nn.Module):
    """Residual block whose execution is decided per image by a two-way gate (skip / execute)."""

    def __init__(self, channels, gate_hidden=8):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(channels)
        self.fc1 = nn.Linear(channels, gate_hidden)
        self.fc2 = nn.Linear(gate_hidden, 2)
        self.gs = GumbleSoftmax()

    def forward(self, x, temperature=1.0):
        """
        Args:
            x: [batch_size, channels, height, width] feature map.

        Returns:
            the block output (same shape as x) and the [batch_size] execute decision of the gate.
        """
        w = F.relu(self.fc1(F.adaptive_avg_pool2d(x, 1).flatten(1)))
        w = self.gs(self.fc2(w), temp=temperature, force_hard=True)
        execute = w[:, 1]
        out = F.relu(self.bn(self.conv(x)))
        return x + out * execute.view(-1, 1, 1, 1), execute


if __name__ == "__main__":
    torch.manual_seed(0)
    block = GatedBasicBlock(channels=4)
    images = torch.randn(3, 4, 6, 6)
    out, execute = block(images)
    print("blocks executed per image:", execute.tolist())
    import math
    with torch.no_grad():
        logits = block.fc2(F.relu(block.fc1(F.adaptive_avg_pool2d(images, 1).flatten(1))))
        torch.manual_seed(1)
        soft = block.gs.gumbel_softmax_sample(logits, 1.0)
        torch.manual_seed(1)
        noise = block.gs.sample_gumbel_like(logits)
    for b in range(3):
        z = [math.exp(logits[b, k].item() + noise[b, k].item()) for k in range(2)]
        for k in range(2):
            assert abs(soft[b, k].item() - z[k] / sum(z)) < 1e-5
    torch.manual_seed(2)
    _, execute = block(images)
    torch.manual_seed(2)
    with torch.no_grad():
        noise = block.gs.sample_gumbel_like(logits)
    for b in range(3):
        scores = [logits[b, k].item() + noise[b, k].item() for k in range(2)]
        assert execute[b].item() == float(scores[1] > scores[0])
    print("ok")
