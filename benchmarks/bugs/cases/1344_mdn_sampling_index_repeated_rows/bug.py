import torch
from torch import nn
from torch.nn import functional as F


def repeat_rows(x, num_reps):
    shape = x.shape
    x = x.unsqueeze(1)
    x = x.expand(shape[0], num_reps, *shape[1:])
    return x.reshape(shape[0] * num_reps, *shape[1:])


class DiagonalGaussianMDN(nn.Module):
    """Conditional mixture of diagonal Gaussians q(theta | x)."""

    def __init__(self, features, context_features, hidden_features, num_components):
        super().__init__()
        self._features = features
        self._num_components = num_components
        self._hidden_net = nn.Sequential(nn.Linear(context_features, hidden_features), nn.Tanh())
        self._logits_layer = nn.Linear(hidden_features, num_components)
        self._means_layer = nn.Linear(hidden_features, num_components * features)
        self._log_stds_layer = nn.Linear(hidden_features, num_components * features)

    def get_mixture_components(self, context):
        h = self._hidden_net(context)
        logits = self._logits_layer(h)
        means = self._means_layer(h).view(-1, self._num_components, self._features)
        stds = self._log_stds_layer(h).view(-1, self._num_components, self._features).exp()
        return logits, means, stds

    def sample(self, num_samples, context):
        logits, means, stds = self.get_mixture_components(context)
        return self.sample_mog(num_samples, logits, means, stds)

    @staticmethod
    def sample_mog(num_samples, logits, means, stds):
        batch_size, n_mixtures, output_dim = means.shape

        # We need (batch_size * num_samples) samples in total.
        means, stds = repeat_rows(means, num_samples), repeat_rows(stds, num_samples)

        coefficients = F.softmax(logits, dim=-1)
        choices = torch.multinomial(coefficients, num_samples=num_samples, replacement=True).view(-1)

        ix = repeat_rows(torch.arange(batch_size), num_samples)
        chosen_means = means[ix, choices, :]
        chosen_stds = stds[ix, choices, :]

        noise = torch.randn(batch_size * num_samples, output_dim)
        samples = chosen_means + chosen_stds * noise
        return samples.reshape(batch_size, num_samples, output_dim)


def off_component_count(samples, means, tol=1e-2):
    bad = 0
    for b in range(samples.shape[0]):
        for s in range(samples.shape[1]):
            dists = [float((samples[b, s] - means[b, k]).abs().max()) for k in range(means.shape[1])]
            if min(dists) > tol:
                bad += 1
    return bad


if __name__ == "__main__":
    torch.manual_seed(0)
    config = dict(features=2, context_features=3, hidden_features=16, num_components=4)
    mdn = DiagonalGaussianMDN(**config)
    with torch.no_grad():
        # near-deterministic components: every draw should sit on one of its own context's means
        mdn._log_stds_layer.weight.zero_()
        mdn._log_stds_layer.bias.fill_(-9.0)
        contexts = torch.randn(3, config["context_features"]) * 3.0
        samples = mdn.sample(20, contexts)
        _, means, _ = mdn.get_mixture_components(contexts)

    print("samples:", tuple(samples.shape))
    print("draws not on a component of their own context:", off_component_count(samples, means), "of", 3 * 20)
