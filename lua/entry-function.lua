-- Redis 7 Functions form: FCALL qless 0 <command> <now> <args>...
redis.register_function{
  function_name = 'qless',
  callback = QlessDispatch,
}
