import torch


def simulate_output_layer(cfg, generator):
    rates = torch.tensor(cfg["firing_rates"]).unsqueeze(0)
    return [torch.bernoulli(rates, generator=generator) for _ in range(cfg["time"])]


def spike_counts(spike_record, window):
    return torch.stack(spike_record[-window:]).sum(0)


def select_softmax(spike_record, window, generator):
    spikes = spike_counts(spike_record, window)
    probabilities = torch.softmax(spikes, dim=-1)
    action = torch.multinomial(probabilities, 1, generator=generator)
    return action, probabilities


def policy_log_prob(probabilities, action):
    return probabilities.gather(1, action).log()


def rollout(cfg, episodes, seed):
    g = torch.Generator().manual_seed(seed)
    actions, log_probs = [], []
    for _ in range(episodes):
        record = simulate_output_layer(cfg, g)
        action, probs = select_softmax(record, cfg["window"], g)
        actions.append(action.item())
        log_probs.append(policy_log_prob(probs, action).item())
    return actions, log_probs


if __name__ == "__main__":
    cfg = {"firing_rates": [0.02, 0.05, 0.30, 0.04], "time": 50, "window": 10}
    actions, log_probs = rollout(cfg, episodes=200, seed=0)

    # reference: replay the same random stream and compute the softmax by hand
    import math
    g = torch.Generator().manual_seed(0)
    for ep in range(200):
        record = simulate_output_layer(cfg, g)
        counts = [sum(step[0, a].item() for step in record[-cfg["window"]:]) for a in range(4)]
        z = sum(math.exp(c) for c in counts)
        probs = torch.tensor([[math.exp(c) / z for c in counts]])
        action = torch.multinomial(probs, 1, generator=g).item()
        assert action == actions[ep]
        assert abs(math.log(math.exp(counts[action]) / z) - log_probs[ep]) < 1e-4
    assert actions.count(2) > 120
    print("ok")
