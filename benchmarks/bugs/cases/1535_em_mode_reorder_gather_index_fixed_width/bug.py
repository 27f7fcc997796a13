import math

import torch


def gaussian_log_prob(x, mu, sigma):
    # x: (agent, 1, length, C)   mu/sigma: (agent, modes, length, C)
    z = (x - mu) / sigma
    return (-0.5 * z ** 2 - torch.log(sigma) - 0.5 * math.log(2 * math.pi)).sum(dim=(-1, -2))


def em_step(samples, q, mu, sigma, min_sigma=0.05):
    # samples: (agent, S, length, C)   q: (agent, modes)
    logp = torch.stack(
        [gaussian_log_prob(samples[:, s : s + 1], mu, sigma) for s in range(samples.shape[1])], dim=1
    )                                                                           # (agent, S, modes)
    resp = torch.softmax(logp + torch.log(q).unsqueeze(1), dim=-1)               # (agent, S, modes)
    weight = resp.sum(dim=1)                                                     # (agent, modes)
    q = weight / weight.sum(dim=-1, keepdim=True)
    w = resp / weight.unsqueeze(1).clamp(min=1e-8)                               # (agent, S, modes)
    mu = torch.einsum("asm,aslc->amlc", w, samples)
    var = torch.einsum("asm,aslc->amlc", w, samples ** 2) - mu ** 2
    sigma = var.clamp(min=min_sigma ** 2).sqrt()
    return q, mu, sigma


def sort_modes(q, mu, sigma):
    # q: (agent, modes)   mu/sigma: (agent, modes, length, C)
    q, order = torch.sort(q, descending=True, dim=1)                            # (agent, modes)
    index = order.unsqueeze(-1).unsqueeze(-1).expand(-1, -1, mu.shape[-2], 2)   # (agent, modes, length, 2)
    mu = torch.gather(mu, 1, index)
    sigma = torch.gather(sigma, 1, index)
    return q, mu, sigma


def fit_modes(samples, init_idx, iters=3, init_sigma=1.0):
    # samples: (agent, S, length, C) trajectories (x, y, yaw, speed)   init_idx: (agent, modes)
    agents, modes = init_idx.shape
    mu = torch.stack([samples[a, init_idx[a]] for a in range(agents)])          # (agent, modes, length, C)
    sigma = torch.full_like(mu, init_sigma)
    q = torch.full((agents, modes), 1.0 / modes)
    for _ in range(iters):
        q, mu, sigma = em_step(samples, q, mu, sigma)
    return sort_modes(q, mu, sigma)


if __name__ == "__main__":
    torch.manual_seed(0)
    agents, S, length, C, modes = 2, 12, 8, 4, 3
    samples = torch.randn(agents, S, length, C).cumsum(dim=2)
    init_idx = torch.stack([torch.randperm(S)[:modes] for _ in range(agents)])
    q, mu, sigma = fit_modes(samples, init_idx)

    # reference: same EM, then reorder the modes by hand
    ref_mu = torch.stack([samples[a, init_idx[a]] for a in range(agents)])
    ref_sigma = torch.ones_like(ref_mu)
    ref_q = torch.full((agents, modes), 1.0 / modes)
    for _ in range(3):
        ref_q, ref_mu, ref_sigma = em_step(samples, ref_q, ref_mu, ref_sigma)
    order = [sorted(range(modes), key=lambda m: -float(ref_q[a, m])) for a in range(agents)]
    ref_mu = torch.stack([torch.stack([ref_mu[a, m] for m in order[a]]) for a in range(agents)])

    print("best-mode trajectory shape:", tuple(mu[:, 0].shape), "expected:", tuple(ref_mu[:, 0].shape))
    print("channels kept per waypoint:", mu.shape[-1], "of", C, "(yaw and speed dropped)")
