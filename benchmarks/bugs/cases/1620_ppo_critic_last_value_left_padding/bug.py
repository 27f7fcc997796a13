import torch
import torch.nn as nn
import torch.nn.functional as F


class CriticModel(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.mix = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.value_head = nn.Linear(hidden_size, 1)

    def forward(self, input_ids, attention_mask):
        h = self.embed(input_ids) * attention_mask.unsqueeze(-1)
        h, _ = self.mix(h)
        return self.value_head(h).squeeze(-1)


def left_pad(prompts, pad_id):
    width = max(len(p) for p in prompts)
    return torch.tensor([[pad_id] * (width - len(p)) + p for p in prompts])


def append_responses(prompt_ids, responses, pad_id):
    width = max(len(r) for r in responses)
    tail = torch.tensor([r + [pad_id] * (width - len(r)) for r in responses])
    return torch.cat([prompt_ids, tail], dim=1)


def critic_values(critic, gen_out, pad_token_id):
    full_mask = (gen_out != pad_token_id).long()
    values_seq = critic(gen_out, full_mask)
    last_indices = full_mask.sum(dim=1) - 1
    values = values_seq[torch.arange(values_seq.size(0), device=values_seq.device), last_indices]
    return values, values_seq


def critic_loss(critic, gen_out, rewards, pad_token_id):
    values, _ = critic_values(critic, gen_out, pad_token_id)
    advantages = rewards - values.detach()
    return F.mse_loss(values, rewards), advantages


if __name__ == "__main__":
    torch.manual_seed(0)
    pad_id = 0
    critic = CriticModel(vocab_size=50, hidden_size=16)
    prompts = [[5, 9, 14, 3], [7, 21], [33, 4, 8]]
    responses = [[11, 2], [17, 25, 40, 2], [19, 2]]  # 2 = eos
    gen_out = append_responses(left_pad(prompts, pad_id), responses, pad_id)
    rewards = torch.tensor([1.0, -0.5, 0.25])

    values, values_seq = critic_values(critic, gen_out, pad_id)
    loss, adv = critic_loss(critic, gen_out, rewards, pad_id)
    print("gen_out:", gen_out.tolist())
    last_real = [max(j for j, t in enumerate(row) if t != pad_id) for row in gen_out.tolist()]
    picked = (gen_out != pad_id).long().sum(dim=1) - 1
    print("last real token positions:", last_real, "positions read:", picked.tolist())
    ref = torch.stack([values_seq[b, j] for b, j in enumerate(last_real)])
    print("values taken at the final token:", torch.allclose(values, ref))
