import torch
import torch.nn as nn


class ToyCLIPTokenizer:
    def __init__(self, words, max_length):
        self.bos_token_id = len(words)
        self.eos_token_id = len(words) + 1
        self.encoder = {w: i for i, w in enumerate(words)}
        self.max_length = max_length

    def __len__(self):
        return len(self.encoder) + 2

    def add_tokens(self, token):
        # added tokens get ids after the special tokens, i.e. above eos
        self.encoder[token] = len(self)
        return self.encoder[token]

    def __call__(self, prompts):
        rows = []
        for prompt in prompts:
            ids = [self.bos_token_id] + [self.encoder[w] for w in prompt.split()] + [self.eos_token_id]
            ids = ids + [self.eos_token_id] * (self.max_length - len(ids))  # pad with eos like CLIP
            rows.append(ids)
        return torch.tensor(rows)


class CLIPTextTransformer(nn.Module):
    def __init__(self, vocab_size, max_length, width, proj_dim, eos_token_id):
        super().__init__()
        self.eos_token_id = eos_token_id
        self.token_embedding = nn.Embedding(vocab_size, width)
        self.position_embedding = nn.Embedding(max_length, width)
        self.attn = nn.MultiheadAttention(width, 2, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))
        self.final_layer_norm = nn.LayerNorm(width)
        self.text_projection = nn.Linear(width, proj_dim, bias=False)

    def resize_token_embeddings(self, new_num_tokens):
        old = self.token_embedding
        new = nn.Embedding(new_num_tokens, old.embedding_dim)
        new.weight.data[: old.num_embeddings] = old.weight.data
        self.token_embedding = new

    def forward(self, input_ids):
        seq_len = input_ids.shape[1]
        # hidden_states: [batch_size, sequence_length, width]
        hidden_states = self.token_embedding(input_ids) + self.position_embedding(torch.arange(seq_len))
        causal_mask = torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool), diagonal=1)
        attn_out, _ = self.attn(hidden_states, hidden_states, hidden_states, attn_mask=causal_mask)
        hidden_states = hidden_states + attn_out
        hidden_states = hidden_states + self.mlp(hidden_states)
        last_hidden_state = self.final_layer_norm(hidden_states)

        # take features from the (first) eot embedding; added tokens can have ids above eot
        # pooled_output: [batch_size, width]
        pooled_output = last_hidden_state[
            torch.arange(last_hidden_state.shape[0]),
            (input_ids == self.eos_token_id).int().argmax(dim=-1),
        ]
        return last_hidden_state, self.text_projection(pooled_output)


if __name__ == "__main__":
    torch.manual_seed(0)
    words = ["a", "photo", "of", "cat", "toy", "on", "the", "beach"]
    tokenizer = ToyCLIPTokenizer(words, max_length=10)
    text_encoder = CLIPTextTransformer(len(tokenizer), 10, width=16, proj_dim=8, eos_token_id=tokenizer.eos_token_id).eval()

    # textual inversion: a new placeholder token whose id is above the eos id
    placeholder_id = tokenizer.add_tokens("<cat-toy>")
    text_encoder.resize_token_embeddings(len(tokenizer))

    input_ids = tokenizer(["a photo of <cat-toy> on the beach", "a photo of cat toy"])
    with torch.no_grad():
        last_hidden_state, text_embeds = text_encoder(input_ids)
        for b, row in enumerate(input_ids.tolist()):
            eos = None
            for t, tok in enumerate(row):
                if tok == tokenizer.eos_token_id:
                    eos = t
                    break
            expected = text_encoder.text_projection(last_hidden_state[b, eos])
            assert torch.allclose(text_embeds[b], expected, atol=1e-6)
    print("ok")
