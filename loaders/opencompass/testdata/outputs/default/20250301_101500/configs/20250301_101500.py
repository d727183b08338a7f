models = [dict(abbr='qwen2.5-1.5b-instruct-hf'), dict(abbr='internlm2_5-1_8b-chat-hf')]
work_dir = 'outputs/default/20250301_101500'
