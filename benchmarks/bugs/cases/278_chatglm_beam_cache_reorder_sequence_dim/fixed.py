import torch
import torch.nn as nn
import torch.nn.functional as F


class GLMBlock(nn.Module):
    def __init__(self, hidden_size, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.input_layernorm = nn.LayerNorm(hidden_size)
        self.query_key_value = nn.Linear(hidden_size, 3 * hidden_size)
        self.dense = nn.Linear(hidden_size, hidden_size)
        self.post_attention_layernorm = nn.LayerNorm(hidden_size)
        self.mlp = nn.Sequential(nn.Linear(hidden_size, 2 * hidden_size), nn.GELU(), nn.Linear(2 * hidden_size, hidden_size))

    def forward(self, hidden_states, layer_past=None):
        # hidden_states: [sq, b, h] -- ChatGLM keeps the sequence dimension first
        sq, b, _ = hidden_states.shape
        mixed = self.query_key_value(self.input_layernorm(hidden_states))
        q, k, v = mixed.view(sq, b, 3 * self.num_heads, self.head_dim).chunk(3, dim=2)  # [sq, b, np, hn]
        if layer_past is not None:
            past_key, past_value = layer_past  # [sk, b, np, hn]
            k = torch.cat((past_key, k), dim=0)
            v = torch.cat((past_value, v), dim=0)
        present = (k, v)
        scores = torch.einsum("sbnh,tbnh->bnst", q, k) / self.head_dim ** 0.5  # [b, np, sq, sk]
        causal = torch.ones(sq, k.shape[0], dtype=torch.bool).tril(k.shape[0] - sq)
        probs = scores.masked_fill(~causal, float("-inf")).softmax(dim=-1)
        context = torch.einsum("bnst,tbnh->sbnh", probs, v).reshape(sq, b, -1)  # [sq, b, h]
        hidden_states = hidden_states + self.dense(context)
        return hidden_states + self.mlp(self.post_attention_layernorm(hidden_states)), present


class ChatGLMForConditionalGeneration(nn.Module):
    def __init__(self, vocab_size, hidden_size, num_heads, num_layers):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size)
        self.layers = nn.ModuleList(GLMBlock(hidden_size, num_heads) for _ in range(num_layers))
        self.final_layernorm = nn.LayerNorm(hidden_size)
        self.output_layer = nn.Linear(hidden_size, vocab_size, bias=False)

    def forward(self, input_ids, past_key_values=None):
        # input_ids: [b, sq]; every cache entry is a (key, value) pair of [sk, b, np, hn]
        hidden_states = self.word_embeddings(input_ids).transpose(0, 1)  # [sq, b, h]
        presents = []
        for i, layer in enumerate(self.layers):
            hidden_states, present = layer(hidden_states, None if past_key_values is None else past_key_values[i])
            presents.append(present)
        logits = self.output_layer(self.final_layernorm(hidden_states)).transpose(0, 1)  # [b, sq, v]
        return logits, tuple(presents)

    @staticmethod
    def _reorder_cache(past_key_values, beam_idx):
        # beam_idx: [b * num_beams], the beam every surviving hypothesis continues
        return tuple(
            (layer_past[0].index_select(1, beam_idx), layer_past[1].index_select(1, beam_idx))
            for layer_past in past_key_values
        )


@torch.no_grad()
def beam_search(model, prompt_ids, num_beams, max_new_tokens):
    batch_size = prompt_ids.shape[0]
    input_ids = prompt_ids.repeat_interleave(num_beams, dim=0)  # [b * num_beams, sq]
    beam_scores = torch.zeros(batch_size, num_beams)
    beam_scores[:, 1:] = -1e9
    beam_scores = beam_scores.view(-1)
    logits, past_key_values = model(input_ids)
    for _ in range(max_new_tokens):
        log_probs = F.log_softmax(logits[:, -1, :], dim=-1)  # [b * num_beams, v]
        vocab_size = log_probs.shape[-1]
        next_scores = (log_probs + beam_scores[:, None]).view(batch_size, num_beams * vocab_size)
        next_scores, next_tokens = next_scores.topk(num_beams, dim=1)  # [b, num_beams]
        beam_source = torch.div(next_tokens, vocab_size, rounding_mode="floor")
        beam_idx = (beam_source + torch.arange(batch_size)[:, None] * num_beams).view(-1)
        next_tokens = (next_tokens % vocab_size).view(-1, 1)
        input_ids = torch.cat([input_ids[beam_idx], next_tokens], dim=-1)
        beam_scores = next_scores.view(-1)
        past_key_values = model._reorder_cache(past_key_values, beam_idx)
        logits, past_key_values = model(next_tokens, past_key_values)
    return input_ids, logits[:, -1, :]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ChatGLMForConditionalGeneration(vocab_size=40, hidden_size=32, num_heads=4, num_layers=2).eval()
    prompt_ids = torch.randint(3, 40, (2, 7))
    sequences, cached_logits = beam_search(model, prompt_ids, num_beams=3, max_new_tokens=4)
    with torch.no_grad():
        recomputed = torch.stack([model(seq[None])[0][0, -1] for seq in sequences])
    print("hypotheses:", sequences[:, 7:].tolist())
    print("max |cached - recomputed| next-token logit:", round((cached_logits - recomputed).abs().max().item(), 4))
    assert (cached_logits - recomputed).abs().max().item() < 1e-4
    print("ok")
