import math

import torch
import torch.nn as nn
import torch.nn.functional as f
from jaxtyping import Float
from torch import Tensor


def gmm_loss(
    batch: Float[Tensor, "seq bs latent"],
    mus: Float[Tensor, "seq bs gauss latent"],
    sigmas: Float[Tensor, "seq bs gauss latent"],
    logpi: Float[Tensor, "seq bs gauss"],
) -> Float[Tensor, ""]:
    batch = batch.unsqueeze(-2)
    normal_logp = -0.5 * ((batch - mus) / sigmas).pow(2) - sigmas.log() - 0.5 * math.log(2 * math.pi)
    g_log_probs = logpi + normal_logp.sum(dim=-1)
    return -torch.logsumexp(g_log_probs, dim=-1).mean()


class MDRNN(nn.Module):
    def __init__(self, latents: int, actions: int, hiddens: int, gaussians: int):
        super().__init__()
        self.latents, self.gaussians = latents, gaussians
        self.rnn = nn.LSTM(latents + actions, hiddens)
        self.gmm_linear = nn.Linear(hiddens, (2 * latents + 1) * gaussians)

    def forward(
        self, actions: Float[Tensor, "seq bs act"], latents: Float[Tensor, "seq bs latent"]
    ) -> tuple[Float[Tensor, "seq bs gauss latent"], Float[Tensor, "seq bs gauss latent"], Float[Tensor, "seq bs gauss"]]:
        seq_len, bs = actions.size(0), actions.size(1)
        outs, _ = self.rnn(torch.cat([actions, latents], dim=-1))
        gmm_outs = self.gmm_linear(outs)
        stride = self.gaussians * self.latents
        mus = gmm_outs[:, :, :stride].view(seq_len, bs, self.gaussians, self.latents)
        sigmas = torch.exp(gmm_outs[:, :, stride:2 * stride]).view(seq_len, bs, self.gaussians, self.latents)
        pi = gmm_outs[:, :, 2 * stride:].view(seq_len, bs, self.gaussians)
        logpi = f.log_softmax(pi, dim=-2)
        return mus, sigmas, logpi


def most_likely_next_latent(
    mus: Float[Tensor, "seq bs gauss latent"], logpi: Float[Tensor, "seq bs gauss"]
) -> Float[Tensor, "seq bs latent"]:
    best = logpi.argmax(dim=-1)
    index = best[..., None, None].expand(-1, -1, 1, mus.size(-1))
    return mus.gather(2, index).squeeze(2)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MDRNN(latents=3, actions=2, hiddens=16, gaussians=4)
    actions, latents, next_latents = torch.randn(5, 6, 2), torch.randn(5, 6, 3), torch.randn(5, 6, 3)
    with torch.no_grad():
        mus, sigmas, logpi = model(actions, latents)
        loss = gmm_loss(next_latents, mus, sigmas, logpi)
        pred = most_likely_next_latent(mus, logpi)
        gmm_outs = model.gmm_linear(model.rnn(torch.cat([actions, latents], -1))[0])
        pi = gmm_outs[:, :, 2 * 12:]
        ref_terms = []
        for t in range(5):
            for b in range(6):
                w = torch.softmax(pi[t, b], dim=0)
                dens = sum(w[g] * torch.distributions.Normal(mus[t, b, g], sigmas[t, b, g]).log_prob(next_latents[t, b]).sum().exp() for g in range(4))
                ref_terms.append(-dens.log())
        ref = torch.stack(ref_terms).mean()
    print("mixture weights per step sum to:", logpi.exp().sum(-1)[0, :3].tolist())
    print("loss:", round(loss.item(), 4), "reference:", round(ref.item(), 4))
