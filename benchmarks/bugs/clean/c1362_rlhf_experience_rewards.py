"""Experience construction for PPO-style RLHF: per-token log-probs, reward at the last response token,
KL-shaped token rewards and GAE. Right-padded responses after a left-padded prompt."""
from typing import Tuple

import torch
import torch.nn.functional as F


def log_probs_from_logits(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """log softmax(logits)[label] without materializing the full log-softmax.

    Args:
        logits: (batch, seq, vocab)
        labels: (batch, seq), every entry a valid vocabulary id
    Returns:
        (batch, seq)
    """
    picked = torch.gather(logits, dim=-1, index=labels.unsqueeze(-1)).squeeze(-1)
    return picked - torch.logsumexp(logits, dim=-1)


def action_log_probs(logits: torch.Tensor, sequences: torch.Tensor, num_actions: int) -> torch.Tensor:
    """Log-probs of the last `num_actions` tokens: position t predicts token t + 1."""
    log_probs = log_probs_from_logits(logits[:, :-1, :], sequences[:, 1:])
    return log_probs[:, -num_actions:]


def last_token_index(mask: torch.Tensor) -> torch.Tensor:
    """Column of the last nonzero entry of each row of a (batch, seq) mask, shape (batch, 1)."""
    return mask.size(1) - 1 - mask.long().fliplr().argmax(dim=1, keepdim=True)


def reward_at_eos(values: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """Reward-model head output read at the last attended token.

    Args:
        values: (batch, seq) scalar head applied to every position
        attention_mask: (batch, seq)
    Returns:
        (batch,)
    """
    eos_indices = last_token_index(attention_mask)
    return values.gather(dim=1, index=eos_indices).squeeze(1)


def compute_reward(
    r: torch.Tensor, kl: torch.Tensor, action_mask: torch.Tensor, kl_coef: float
) -> torch.Tensor:
    """Token-level reward: -kl_coef * kl everywhere, plus the sequence reward on the last action."""
    kl_reward = -kl_coef * kl
    eos_indices = last_token_index(action_mask)
    last_reward = torch.zeros_like(kl).scatter_(dim=1, index=eos_indices, src=r.unsqueeze(1).to(kl.dtype))
    return (last_reward + kl_reward) * action_mask


def gae(
    values: torch.Tensor, rewards: torch.Tensor, action_mask: torch.Tensor, gamma: float, lambd: float
) -> Tuple[torch.Tensor, torch.Tensor]:
    values = values * action_mask
    rewards = rewards * action_mask
    last_gae = torch.zeros_like(values[:, 0])
    advantages_reversed = []
    response_length = rewards.size(1)
    for t in reversed(range(response_length)):
        next_value = values[:, t + 1] if t < response_length - 1 else torch.zeros_like(values[:, 0])
        delta = rewards[:, t] + gamma * next_value - values[:, t]
        last_gae = delta + gamma * lambd * last_gae
        advantages_reversed.append(last_gae)
    advantages = torch.stack(advantages_reversed[::-1], dim=1)
    return advantages.detach(), (advantages + values).detach()


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, prompt_len, num_actions, vocab = 3, 4, 6, 11
    pad = 0
    sequences = torch.randint(1, vocab, (batch, prompt_len + num_actions))
    sequences[0, :2] = pad  # left padding in the prompt
    sequences[1, prompt_len + 4:] = pad  # response ended early
    attention_mask = sequences.ne(pad).long()
    action_mask = attention_mask[:, prompt_len:]

    logits = torch.randn(batch, prompt_len + num_actions, vocab)
    ref_logits = torch.randn(batch, prompt_len + num_actions, vocab)
    logp = action_log_probs(logits, sequences, num_actions)
    ref_logp = action_log_probs(ref_logits, sequences, num_actions)

    full = F.log_softmax(logits, dim=-1)
    for b in range(batch):
        for i in range(num_actions):
            t = prompt_len + i
            assert torch.isclose(logp[b, i], full[b, t - 1, sequences[b, t]], atol=1e-5)

    rm_values = torch.randn(batch, prompt_len + num_actions)
    r = reward_at_eos(rm_values, attention_mask)
    for b in range(batch):
        last = max(t for t in range(prompt_len + num_actions) if attention_mask[b, t])
        assert r[b] == rm_values[b, last]

    kl = (logp - ref_logp) * action_mask
    rewards = compute_reward(r, kl, action_mask, kl_coef=0.05)
    for b in range(batch):
        last = max(i for i in range(num_actions) if action_mask[b, i])
        for i in range(num_actions):
            expected = (-0.05 * kl[b, i] + (r[b] if i == last else 0.0)) * action_mask[b, i]
            assert torch.isclose(rewards[b, i], expected, atol=1e-6)

    critic_values = torch.randn(batch, num_actions)
    adv, ret = gae(critic_values, rewards, action_mask, gamma=1.0, lambd=0.95)
    assert adv.shape == (batch, num_actions) and ret.shape == (batch, num_actions)
    print("ok")
