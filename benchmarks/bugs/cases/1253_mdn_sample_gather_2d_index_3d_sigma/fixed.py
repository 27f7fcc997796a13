import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class MixtureDensityHead(nn.Module):
    """Mixture density output layer.

    Args:
        in_features (int): size of the input features D.
        out_features (int): dimensionality O of each Gaussian.
        num_gaussians (int): number of mixture components G.
    """

    def __init__(self, in_features, out_features, num_gaussians):
        super().__init__()
        self.out_features = out_features
        self.num_gaussians = num_gaussians
        self.pi = nn.Linear(in_features, num_gaussians)
        self.sigma = nn.Linear(in_features, out_features * num_gaussians)
        self.mu = nn.Linear(in_features, out_features * num_gaussians)

    def forward(self, x):
        """
        Args:
            x (Tensor): (B, D) features.

        Returns:
            pi (Tensor): (B, G) mixture weights.
            sigma (Tensor): (B, G, O) standard deviations.
            mu (Tensor): (B, G, O) means.
        """
        pi = F.softmax(self.pi(x), dim=1)
        sigma = torch.exp(self.sigma(x)).view(-1, self.num_gaussians, self.out_features)
        mu = self.mu(x).view(-1, self.num_gaussians, self.out_features)
        return pi, sigma, mu


def sample(pi, sigma, mu):
    """Draw one sample per row from the Gaussian mixture.

    Args:
        pi (Tensor): (B, G) mixture weights.
        sigma (Tensor): (B, G, O) standard deviations.
        mu (Tensor): (B, G, O) means.

    Returns:
        Tensor: (B, O) samples.
    """
    comp = Categorical(pi).sample().unsqueeze(1)
    comp = comp.unsqueeze(-1).expand(-1, 1, sigma.size(2))
    noise = torch.randn(sigma.size(0), sigma.size(2))
    chosen_sigma = sigma.gather(1, comp).squeeze(1)
    chosen_mu = mu.gather(1, comp).squeeze(1)
    return noise * chosen_sigma + chosen_mu


if __name__ == "__main__":
    torch.manual_seed(0)
    head = MixtureDensityHead(in_features=6, out_features=2, num_gaussians=3)
    with torch.no_grad():
        pi, sigma, mu = head(torch.randn(5, 6))
        torch.manual_seed(1)
        out = sample(pi, sigma, mu)
        torch.manual_seed(1)
        k = Categorical(pi).sample()
        noise = torch.randn(5, 2)
        for b in range(5):
            for o in range(2):
                ref = noise[b, o] * sigma[b, k[b], o] + mu[b, k[b], o]
                assert abs(out[b, o].item() - ref.item()) < 1e-5
    print("ok")
