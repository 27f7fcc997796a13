import torch
import torch.nn as nn


def one_hot(indices, num_classes):
    out = torch.zeros(indices.size(0), num_classes)
    values = torch.ones(1, 1)
    return out.scatter(1, indices.unsqueeze(1), values)


class ConditionalPrior(nn.Module):
    def __init__(self, num_classes, latent_dim):
        super().__init__()
        self.num_classes = num_classes
        self.to_stats = nn.Linear(num_classes, 2 * latent_dim)

    def forward(self, labels):
        mu, log_var = self.to_stats(one_hot(labels, self.num_classes)).chunk(2, dim=-1)
        return mu, log_var


if __name__ == "__main__":
    torch.manual_seed(0)
    prior = ConditionalPrior(num_classes=4, latent_dim=8)
    labels = torch.tensor([0, 1, 2, 3])
    mu, log_var = prior(labels)
    print(mu.shape, log_var.shape)
