# frozen_string_literal: true

# Runs a suite of the Ruby tests: "api", "worker" or "all" (default), or the
# test files named on the command line.
# Usage: ruby -I <bindings/ruby/lib> -I <build ext dir> tests/ruby/run.rb [suite | test_x.rb ...] [-v] [-n=/pattern/]
# (minitest options that take a value must be written -n=VALUE here).
$LOAD_PATH.unshift(__dir__)
all = Dir[File.join(__dir__, "test_*.rb")].sort
suites = { "worker" => all.grep(/test_worker/), "api" => all.grep_v(/test_worker/), "all" => all }
names, options = ARGV.partition { |a| !a.start_with?("-") }
files = names.empty? ? all : names.flat_map { |a| suites.fetch(a) { [File.expand_path(a, __dir__)] } }
ARGV.replace(options)   # the rest (e.g. -v, -n NAME) is for minitest
files.each { |f| require f }
