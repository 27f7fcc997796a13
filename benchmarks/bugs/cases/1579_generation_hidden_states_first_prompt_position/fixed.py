import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.proj = nn.Linear(hidden_size, hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size)

    def step(self, input_ids, attention_mask, state):
        x = self.embed(input_ids) * attention_mask[..., None]
        summed = torch.cumsum(x, dim=1) + (state if state is not None else 0.0)
        h = torch.tanh(self.proj(summed))
        return h, summed[:, -1:, :]


@torch.no_grad()
def generate_with_hidden_states(model, input_ids, attention_mask, max_new_tokens):
    all_hidden, generated = [], []
    h, state = model.step(input_ids, attention_mask, None)
    for _ in range(max_new_tokens):
        all_hidden.append((h,))
        next_ids = model.lm_head(h[:, -1]).argmax(-1, keepdim=True)
        generated.append(next_ids)
        h, state = model.step(next_ids, torch.ones_like(next_ids), state)
    return torch.cat(generated, dim=1), tuple(all_hidden)


def collect_generation_hidden_states(hidden_states, num_generated):
    per_sequence = []
    for k in range(num_generated.shape[0]):
        rows = []
        for step_offset in range(num_generated[k].item()):
            hs_tensor_for_step = hidden_states[step_offset][-1]
            rows.append(hs_tensor_for_step[k, -1, :])
        per_sequence.append(torch.stack(rows))
    return per_sequence


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLM(vocab_size=40, hidden_size=16).eval()
    # left-padded prompts, pad id 0
    input_ids = torch.tensor([[0, 0, 5, 17, 3], [8, 2, 9, 30, 11]])
    attention_mask = (input_ids != 0).long()
    gen, hidden_states = generate_with_hidden_states(model, input_ids, attention_mask, max_new_tokens=3)
    feats = collect_generation_hidden_states(hidden_states, torch.tensor([3, 3]))
    with torch.no_grad():
        for k in range(2):
            for t in range(3):
                predicted = max(range(40), key=lambda v: model.lm_head(feats[k][t])[v].item())
                assert predicted == gen[k, t].item(), (k, t)
    print("ok")
