import torch


class SamplingParams:
    def __init__(self, temperature, logits_processors=None):
        self.temperature = temperature
        self.logits_processors = logits_processors or []


class ChatCompletionRequest:
    def __init__(self, messages, temperature=1.0, logit_bias=None):
        self.messages = messages
        self.temperature = temperature
        self.logit_bias = logit_bias

    def to_sampling_params(self, vocab_size):
        logits_processors = None
        if self.logit_bias:
            logit_bias = {}
            try:
                for token_id, bias in self.logit_bias.items():
                    # clamp the bias between -100 and 100 per the OpenAI API spec
                    logit_bias[int(token_id)] = min(100, max(-100, bias))
            except ValueError as exc:
                raise ValueError(f"Found token_id `{token_id}` in logit_bias but token_id must be an integer.") from exc

            def logit_bias_logits_processor(token_ids, logits):
                for token_id, bias in logit_bias.items():
                    logits[token_id] += bias
                return logits

            logits_processors = [logit_bias_logits_processor]
        return SamplingParams(temperature=self.temperature, logits_processors=logits_processors)


def apply_logits_processors(logits, sequences):
    for row, (output_token_ids, params) in enumerate(sequences):
        for processor in params.logits_processors:
            logits[row] = processor(output_token_ids, logits[row])
    return logits


class LMHead(torch.nn.Module):
    def __init__(self, hidden, vocab_size):
        super().__init__()
        self.proj = torch.nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, hidden_states):
        return self.proj(hidden_states)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"hidden": 16, "vocab_size": 64}
    vocab_size = cfg["vocab_size"]
    head = LMHead(hidden=cfg["hidden"], vocab_size=vocab_size)
    requests = [
        ChatCompletionRequest([{"role": "user", "content": "hi"}], logit_bias={"5": 3.0, "17": -100}),
        ChatCompletionRequest([{"role": "user", "content": "hello"}], logit_bias={"70": 10.0}),
    ]
    params = [r.to_sampling_params(vocab_size) for r in requests]
    with torch.no_grad():
        logits = head(torch.randn(len(params), cfg["hidden"]))
        logits = apply_logits_processors(logits, [([1, 2, 3], params[0]), ([4, 5], params[1])])
    print("next tokens:", logits.argmax(dim=-1).tolist())
