import torch


def simulate_output_layer(cfg, generator):
    rates = torch.tensor(cfg["firing_rates"]).unsqueeze(0)
    return [torch.bernoulli(rates, generator=generator) for _ in range(cfg["time"])]


def spike_counts(spike_record, window):
    return torch.stack(spike_record[-window:]).sum(0)


def select_softmax(spike_record, window, generator):
    spikes = spike_counts(spike_record, window)
    probabilities = torch.softmax(spikes, dim=0)
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
    print("action histogram:", [actions.count(a) for a in range(4)])
    print("mean log pi(a|s):", sum(log_probs) / len(log_probs))
