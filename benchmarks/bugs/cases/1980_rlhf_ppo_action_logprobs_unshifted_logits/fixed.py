import torch
import torch.nn as nn
import torch.nn.functional as F


def exists(val):
    return val is not None


def log(t, eps=1e-20):
    return torch.log(t.clamp(min=eps))


def log_prob(prob, indices):
    return log(prob.gather(-1, indices[..., None])).squeeze(-1)


def shift(t, value=0, shift=1, dim=-1):
    zeros = (0, 0) * (-dim - 1)
    return F.pad(t, (*zeros, shift, -shift), value=value)


def masked_mean(seq, mask=None, dim=1):
    if not exists(mask):
        return seq.mean(dim=dim)
    if seq.ndim == 3:
        mask = mask[..., None]
    masked_seq = seq.masked_fill(~mask, 0.)
    return masked_seq.sum(dim=dim) / mask.sum(dim=dim).clamp(min=1e-3)


class PaLM(nn.Module):
    def __init__(self, num_tokens, dim):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, x, return_only_embedding=False):
        h = self.token_emb(x)
        n = h.shape[-2]
        causal = torch.ones(n, n, dtype=torch.bool).tril()
        h = torch.tanh((causal.float() @ h) / causal.sum(dim=-1, keepdim=True))
        if return_only_embedding:
            return h
        return self.to_logits(h)


class ActorCritic(nn.Module):
    def __init__(self, palm, critic_palm, pooled_values=False):
        super().__init__()
        self.actor_palm = palm
        self.critic_palm = critic_palm
        self.pooled_values = pooled_values
        self.value_head = nn.Linear(critic_palm.token_emb.embedding_dim, 1)

    @torch.no_grad()
    def generate(self, state, max_seq_len, temperature=1.):
        sequence = state
        action_log_probs = []
        for _ in range(max_seq_len):
            logits = self.actor_palm(sequence)[:, -1] / temperature
            probs = logits.softmax(dim=-1)
            action = torch.multinomial(probs, 1)
            action_log_probs.append(log_prob(probs, action.squeeze(-1)))
            sequence = torch.cat((sequence, action), dim=-1)
        actions = sequence[:, state.shape[-1]:]
        return actions, sequence, torch.stack(action_log_probs, dim=-1)

    def forward(self, x, mask=None, return_values=True):
        action_logits = self.actor_palm(x)

        if not return_values:
            return action_logits, None

        critic_embeds = self.critic_palm(x, return_only_embedding=True)

        if self.pooled_values:
            critic_embeds = masked_mean(critic_embeds, mask, dim=1)

        values = self.value_head(critic_embeds).squeeze(-1)
        return action_logits, values


class RLHFTrainer(nn.Module):
    def __init__(self, actor_critic, eps_clip=0.2, beta_s=0.01):
        super().__init__()
        self.actor_critic = actor_critic
        self.eps_clip = eps_clip
        self.beta_s = beta_s

    def learn(self, sequences, prompt_masks, old_log_probs, rewards, old_values):
        action_masks = ~prompt_masks

        action_logits, values = self.actor_critic(sequences, mask=action_masks)

        # actions start from the last prompt (state) token: logits at position t predict token t + 1
        action_logits = shift(action_logits, shift=1, dim=-2)
        values = shift(values, shift=1, dim=-1)
        old_values = shift(old_values, shift=1, dim=-1)
        action_len = old_log_probs.shape[-1]

        action_probs = action_logits.softmax(dim=-1)
        action_log_probs = log_prob(action_probs, sequences)
        action_log_probs = action_log_probs[:, -action_len:]

        old_values = old_values[:, -action_len:]
        values = values[:, -action_len:]
        advantages = rewards[:, None] - old_values

        ratios = (action_log_probs - old_log_probs).exp()
        surr1 = ratios * advantages
        surr2 = ratios.clamp(1 - self.eps_clip, 1 + self.eps_clip) * advantages
        policy_loss = - torch.min(surr1, surr2)
        return policy_loss.mean(), ratios


if __name__ == "__main__":
    torch.manual_seed(0)
    num_tokens = 20
    actor_critic = ActorCritic(PaLM(num_tokens, 16), PaLM(num_tokens, 16))
    trainer = RLHFTrainer(actor_critic)

    prompts = torch.randint(0, num_tokens, (3, 4))
    actions, sequences, old_log_probs = actor_critic.generate(prompts, max_seq_len=5)
    prompt_masks = torch.arange(sequences.shape[-1]) < prompts.shape[-1]
    prompt_masks = prompt_masks.expand(sequences.shape[0], -1)
    rewards = torch.randn(3)
    with torch.no_grad():
        _, old_values = actor_critic(sequences)

    with torch.no_grad():
        loss, ratios = trainer.learn(sequences, prompt_masks, old_log_probs, rewards, old_values)

        # reference: log-prob of every action token under the logits of its own prefix
        prompt_len = prompts.shape[-1]
        for b in range(sequences.shape[0]):
            for t in range(actions.shape[-1]):
                prefix = sequences[b:b + 1, :prompt_len + t]
                logits = actor_critic.actor_palm(prefix)[0, -1]
                expected = logits.log_softmax(dim=-1)[sequences[b, prompt_len + t]]
                got = old_log_probs[b, t] + ratios[b, t].log()
                assert torch.allclose(got, expected, atol=1e-5), (b, t)
    # first PPO epoch, policy not updated yet: every importance ratio is exactly one
    assert torch.allclose(ratios, torch.ones_like(ratios), atol=1e-5)
    print("ok")
