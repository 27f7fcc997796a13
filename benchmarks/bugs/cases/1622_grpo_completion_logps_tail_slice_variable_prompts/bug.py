import torch
import torch.nn as nn
import torch.nn.functional as F


class PolicyLM(nn.Module):
    def __init__(self, vocab_size=48, hidden=16):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids, attention_mask=None):
        h, _ = self.rnn(self.embed(input_ids))  # [B, L, H]
        return self.head(h)  # [B, L, V]


def pack_rollouts(prompts, completions, pad_id):
    # server-side rollouts come back unpadded: store prompt + completion, then right-pad
    max_comp = max(len(c) for c in completions)
    max_len = max(len(p) for p in prompts) + max_comp
    rows = [p + c + [pad_id] * (max_len - len(p) - len(c)) for p, c in zip(prompts, completions)]
    output_ids = torch.tensor(rows)  # [B, P_max + R]
    completion_ids = torch.tensor([c + [pad_id] * (max_comp - len(c)) for c in completions])  # [B, R]
    completion_mask = torch.tensor([[1] * len(c) + [0] * (max_comp - len(c)) for c in completions])  # [B, R]
    prompt_lens = torch.tensor([len(p) for p in prompts])  # [B]
    return output_ids, completion_ids, completion_mask, prompt_lens


def completion_logps(model, output_ids, completion_ids, prompt_lens, pad_id):
    full_mask = (output_ids != pad_id).long()  # [B, L]
    logits = model(output_ids, attention_mask=full_mask)[:, :-1, :]  # [B, L-1, V]
    return F.log_softmax(logits, dim=-1).gather(2, output_ids[:, 1:].unsqueeze(-1)).squeeze(-1)[:, -completion_ids.size(1):]


def grpo_loss(logps, ref_logps, advantages, completion_mask, beta=0.04):
    # logps, ref_logps, completion_mask: [B, R]; advantages: [B]
    kl = torch.exp(ref_logps - logps) - (ref_logps - logps) - 1
    per_token = -(torch.exp(logps - logps.detach()) * advantages.unsqueeze(1)) + beta * kl
    return ((per_token * completion_mask).sum(1) / completion_mask.sum(1).clamp(min=1)).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    pad_id = 0
    policy = PolicyLM()
    prompts = [[5, 9, 14], [7, 21, 3, 30, 12, 6], [33, 4, 8, 17]]
    completions = [[11, 19, 25, 2], [17, 2], [40, 22, 2]]
    output_ids, completion_ids, completion_mask, prompt_lens = pack_rollouts(prompts, completions, pad_id)

    logps = completion_logps(policy, output_ids, completion_ids, prompt_lens, pad_id)
    loss = grpo_loss(logps, logps.detach(), torch.tensor([1.0, -1.0, 0.5]), completion_mask)

    with torch.no_grad():
        ref = torch.zeros_like(logps)
        for b, (p, c) in enumerate(zip(prompts, completions)):
            lp = F.log_softmax(policy(torch.tensor([p + c]))[0], dim=-1)
            for j, tok in enumerate(c):
                ref[b, j] = lp[len(p) - 1 + j, tok]
    same = torch.allclose(logps * completion_mask, ref, atol=1e-5)
    print("loss:", loss.item())
    print("completion log-probs match the completion tokens:", same)
