import torch
import torch.nn as nn


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.mix = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.lm_head = nn.Linear(hidden_size, vocab_size)

    def forward(self, input_ids):
        h, _ = self.mix(self.embed(input_ids))
        return self.lm_head(h)


class Generation:
    def __init__(self, next_token_id, next_token_logprob, prefill_token_ids, prefill_logprobs):
        self.next_token_id = next_token_id
        self.next_token_logprob = next_token_logprob
        self.prefill_token_ids = prefill_token_ids
        self.prefill_logprobs = prefill_logprobs


class VectorizedCausalLM:
    def __init__(self, model):
        self.model = model

    @torch.no_grad()
    def generate_token(self, input_ids, details=True):
        key_length = input_ids.size(1)
        logits = self.model(input_ids)
        logprobs = torch.log_softmax(logits, dim=-1)
        next_token_ids = logits[:, -1, :].argmax(dim=-1)

        generations = []
        if details:
            token_logprobs = logprobs[:, -1, :].gather(1, next_token_ids.unsqueeze(1)).squeeze(1).tolist()
            prefill_token_ids = input_ids[:, :key_length].tolist()
            prefill_logprobs = logprobs.gather(1, input_ids[:, 1:key_length, None]).squeeze(2).tolist()
            for i, next_id in enumerate(next_token_ids.tolist()):
                generations.append(
                    Generation(next_id, token_logprobs[i], prefill_token_ids[i], [float("nan")] + prefill_logprobs[i])
                )
        return next_token_ids, generations


if __name__ == "__main__":
    torch.manual_seed(0)
    engine = VectorizedCausalLM(TinyCausalLM(vocab_size=50, hidden_size=16).eval())
    prompt = torch.randint(0, 50, (3, 7))
    next_ids, gens = engine.generate_token(prompt)
    for g in gens:
        print(g.next_token_id, round(g.next_token_logprob, 4), [round(x, 3) for x in g.prefill_logprobs])
