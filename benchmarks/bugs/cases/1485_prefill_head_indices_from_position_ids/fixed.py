import torch
import torch.nn as nn


class Request:
    def __init__(self, request_id, token_ids, cache_length, prefill_logprobs):
        self.request_id = request_id
        self.token_ids = token_ids          # full prompt, cached prefix included
        self.cache_length = cache_length    # tokens already in the KV cache (prefix hit)
        self.prefill_logprobs = prefill_logprobs


class FlashBatch:
    """Flattened (packed) prefill batch: all new tokens of all requests in one row."""

    def __init__(self, requests):
        self.requests = requests
        input_ids, position_ids, head_indices = [], [], []
        next_token_indices, cu_outlens = [], [0]
        cumulative_length = 0
        out_cumulative_length = 0
        for r in requests:
            input_length = len(r.token_ids) - r.cache_length
            input_ids.extend(r.token_ids[r.cache_length:])
            # positions continue after the cached prefix: [cache_length, cache_length + input_length)
            request_position_ids = torch.arange(r.cache_length, r.cache_length + input_length)
            position_ids.append(request_position_ids)
            if r.prefill_logprobs:
                # rows of the packed hidden states that belong to this request
                head_indices.append(torch.arange(cumulative_length, cumulative_length + input_length))
                next_token_indices.append(out_cumulative_length + input_length - 1)
                out_cumulative_length += input_length
            else:
                head_indices.append(torch.tensor([cumulative_length + input_length - 1]))
                next_token_indices.append(out_cumulative_length)
                out_cumulative_length += 1
            cu_outlens.append(out_cumulative_length)
            cumulative_length += input_length
        self.input_ids = torch.tensor(input_ids)                 # [total_tokens]
        self.position_ids = torch.cat(position_ids)              # [total_tokens]
        self.prefill_head_indices = torch.cat(head_indices)      # [total_out]
        self.prefill_next_token_indices = torch.tensor(next_token_indices)
        self.prefill_cu_outlens = cu_outlens


class ToyCausalLM(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.mlp = nn.Sequential(nn.Linear(hidden_size, hidden_size), nn.GELU())
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    def forward(self, input_ids, lm_head_indices=None):
        hidden_states = self.mlp(self.embed(input_ids))        # [total_tokens, H]
        if lm_head_indices is not None:
            hidden_states = hidden_states[lm_head_indices]     # [total_out, H]
        return self.lm_head(hidden_states)                     # [total_out, V]


def prefill_logprobs(model, batch):
    logits = model(batch.input_ids, batch.prefill_head_indices)
    logprobs = logits.log_softmax(-1)
    out = {}
    for i, r in enumerate(batch.requests):
        if not r.prefill_logprobs:
            continue
        start, end = batch.prefill_cu_outlens[i], batch.prefill_cu_outlens[i + 1]
        targets = torch.tensor(r.token_ids[r.cache_length + 1:])           # next prompt tokens
        out[r.request_id] = logprobs[start:end - 1].gather(-1, targets[:, None]).squeeze(-1)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ToyCausalLM(vocab_size=50, hidden_size=16).eval()
    a = Request("a", [4, 9, 17, 3, 22, 8, 31], cache_length=3, prefill_logprobs=True)
    b = Request("b", [11, 5, 40, 2, 19], cache_length=0, prefill_logprobs=False)
    batch = FlashBatch([a, b])
    with torch.no_grad():
        got = prefill_logprobs(model, batch)["a"]
        ref_logits = model(torch.tensor(a.token_ids[a.cache_length:])).log_softmax(-1)
    ref = torch.stack([ref_logits[t, a.token_ids[a.cache_length + t + 1]] for t in range(3)])
    assert batch.prefill_head_indices[:4].tolist() == [0, 1, 2, 3]
    assert torch.allclose(got, ref, atol=1e-6)
    print("ok")
