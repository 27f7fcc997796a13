import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyPixelCNN(nn.Module):
    """Masked-convolution stand-in: predicts a categorical distribution over colours for every pixel."""

    def __init__(self, num_channels, num_colors, num_filters):
        super().__init__()
        self.num_channels = num_channels
        self.num_colors = num_colors
        self.net = nn.Sequential(nn.Conv2d(num_channels, num_filters, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(num_filters, num_colors * num_channels, 1))

    def forward(self, x):
        logits = self.net(x)
        n, _, h, w = logits.shape
        return logits.view(n, self.num_colors, self.num_channels, h, w)

    def log_likelihood(self, device, samples):
        """Calculates log likelihood of samples under model."""
        self.eval()
        num_samples, num_channels, height, width = samples.size()
        log_probs = torch.zeros(num_samples).to(device)
        norm_samples = samples.float() / (self.num_colors - 1)
        logits = self.forward(norm_samples)
        probs = F.softmax(logits, dim=1)
        for i in range(height):
            for j in range(width):
                for k in range(num_channels):
                    true_vals = samples[:, k, i, j]
                    probs_pixel = probs[:, true_vals, k, i, j][:, 0]
                    log_probs += torch.log(probs_pixel + 1e-9)
        self.train()
        return log_probs


def sample_batch(config, generator):
    shape = (config["batch_size"], config["num_channels"], config["size"], config["size"])
    return torch.randint(0, config["num_colors"], shape, generator=generator)


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"batch_size": 4, "num_channels": 1, "size": 5, "num_colors": 4}
    model = TinyPixelCNN(config["num_channels"], config["num_colors"], num_filters=8)
    samples = sample_batch(config, torch.Generator().manual_seed(1))
    with torch.no_grad():
        ll = model.log_likelihood("cpu", samples)
        logp = F.log_softmax(model(samples.float() / 3), dim=1)
    per_sample = [sum(logp[n, samples[n, 0, i, j], 0, i, j].item() for i in range(5) for j in range(5))
                  for n in range(4)]
    print("log-likelihoods:", [round(v, 3) for v in ll.tolist()])
    print("per-sample sums:", [round(v, 3) for v in per_sample])
